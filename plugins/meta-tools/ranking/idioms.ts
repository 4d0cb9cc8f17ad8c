/**
 * Idioms read as the words tools use: a request says what it wants in phrases no tool's text
 * has, each group below with what it reads and why. Each pattern starts only where its phrase
 * can and reads each character a bounded number of times (test/unit/ranking-phrases.test.ts
 * floods them).
 */

/** A pattern, and the words a request that has it is read with in its place. */
type Idiom = readonly [pattern: RegExp, words: string];

/**
 * Time, talk and plans said as people say them: "the whole back and forth with the landlord" is
 * a conversation's thread, "how long does it take to get to the airport" a travel time, "my
 * schedule" the calendar's events (not a scheduled e-mail), "shouldn't slip my mind" a reminder,
 * "block off Friday afternoon" a calendar event, and so is a trip "blocked on my calendar";
 * "month by month" a trend over time.
 */
const CONVERSATION_AND_TIME: readonly Idiom[] = [
  [/\bback\s+and\s+forth\b/gi, ' conversation thread '],
  [
    /\bhow\s+long\s+(?:does|will|would)\s+it\s+take\s+to\s+(?:get|drive|walk|cycle|fly|travel|go)\b|\bhow\s+long\s+(?:the|a|my|our)\s+(?:drive|walk|ride|trip|commute|journey)\b/gi,
    ' travel time distance ',
  ],
  [/\b(?:my|our|his|her|their|the\s+team's|today's|tomorrow's)\s+schedule\b/gi, ' calendar events '],
  [/\bslips?\s+(?:my|your|his|her|our|their)\s+mind\b|\b(?:do\s+not|don't|dont|never)\s+let\s+me\s+forget\b/gi, ' remind reminder '],
  [
    /\bblock(?:s|ed|ing)?\s+(?:(?:off|out)\s+)?(?:(?:my|the|some|an?|for)\s+){0,2}(?:(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow)(?:'s)?\s+)?(?:focus\s+)?(?:time|morning|afternoon|evening|hour|day)s?\b|\b(?:morning|afternoon|evening|day)\s+(?:needs|has)\s+to\s+be\s+blocked\b/gi,
    ' calendar event ',
  ],
  [/\b(?:month|week|year|day)\s+by\s+(?:month|week|year|day)\b|\bover\s+time\b/gi, ' trend over time '],
  [
    /\b(?:blocked|put|pencil(?:led|ed)?)\s+(?:(?:it|this|that|them|an?|the|[\w'-]{1,40})\s+){0,3}?(?:in\s+)?(?:on|in|into)\s+(?:my|our|the|his|her|their)\s+calendars?\b/gi,
    ' create calendar event ',
  ],
  [/\bwhen\s+it(?:'s|\s+is|\s+was|\s+will\s+be)\s+(?:time|noon|midnight)\s+(?:in|at|over\s+in)\b/gi, ' convert time zone '],
];

/**
 * A question about a set ("which feature flags are on", "what tables are in the file", "are there
 * any open incidents", "which indexes exist", "which of my calendars") asks for a listing: only
 * with a plural and a verb after it (or "which of my" before a plural), since "what time is it" and
 * "which branch is checked out" ask about one thing. Which columns or fields a table or a
 * collection has asks its schema (a board's columns are its lists). "Give me" is a get; "where to
 * stay" a rental listing; what to pack or bring a question of the weather, and so is an outlook for
 * days ahead (Outlook alone stays the mail client). What "the authenticated user can access"
 * qualifies is what is asked for, not the user (it found a CRM's user details before every
 * repository). Whether a site is "up or down" is a request to it. A page called or titled something
 * is one to search by its title, what we decided in a meeting a search of the notes, rows "where
 * status is" something a filtered query. The pull requests "we merged" (or the issues we closed)
 * are a listing of them: the verb says which, no act to do again. What I wrote somewhere, and what
 * is in it about something, asks to search it. Telling everyone posts a message, and so does
 * writing something up in a channel. What is left is a listing of what is incomplete, the next
 * batch of matches more results; what the team ought to hear is a message to post.
 */
const ASKING: readonly Idiom[] = [
  [
    /\b(?:what|which)\s+(?:columns|fields|attributes|keys)\s+(?:does|do|did|can|are|is)\b(?=\s+(?:[\w'-]{1,40}\s+){0,4}?(?:tables?|collections?|documents?|records?|rows?|databases?|db)\b)/gi,
    ' schema fields ',
  ],
  [
    /\b(?:which|what)\s+(?=(?:[\w-]{1,40}\s+){0,2}[\w-]{2,40}s\s+(?:are|were|have|had|do|did|need|exist)\b)|\bare\s+there\s+any\b|\bwhich\s+of\s+(?:my|our|the|your)\s+(?=[\w-]{2,40}s\b)/gi,
    ' list ',
  ],
  [/\bgive\s+(?:me|us)\b/gi, ' get '],
  [/\bwhat(?:'s|\u2019s|\s+is|\s+are)\s+(?:still\s+)?left\b/gi, ' list remaining incomplete '],
  [/\bnext\s+(?:batch|page|set)\s+of\b|\bmore\s+(?:matches|results|hits)\b/gi, ' more results '],
  [/\b(?:ought\s+to|should|needs?\s+to|must|has\s+to|have\s+to)\s+(?:hear|know|be\s+told)\b/gi, ' send message post '],
  [
    /\b([\w-]{2,40}s)\s+(?:that\s+)?(?:we|i|you|they|he|she)\s+(?:just\s+)?(?:merged|closed|shipped|created|opened|wrote|sent|fixed|deployed|made|finished|resolved)\b/gi,
    ' $1 list ',
  ],
  [/\b(?:pages?|docs?|documents?|notes?)\s+(?=(?:titled|entitled|called|named)\b)/gi, ' $& search title '],
  [/\bwhat\s+did\s+(?:we|i|they|you)\s+(?:decide|agree|conclude|discuss)\b/gi, ' search notes '],
  [/\b(?:rows|records|entries|items)\s+(?:[\w'-]{1,40}\s+){0,5}?where\s+(?=(?:the\s+)?[\w-]{1,40}\s+(?:is|are|equals)\b)/gi, ' $& query filter '],
  [/\bwhat\s+(?:did|have|had)\s+(?:i|we|you)\s+(?:write|written|note|noted|jot|jotted|save|saved|put)\b/gi, ' search read '],
  [/\bwhat(?:'s|\u2019s|\s+is)\s+in\s+(?=(?:my|our|the)\s+(?:[\w-]{1,40}\s+){1,2}?about\b)/gi, ' search '],
  [/\btell\s+(?:everyone|everybody|the\s+team|the\s+channel|the\s+group)\b/gi, ' send message post '],
  [
    /\b(?:write|put|drop|share|summari[sz]e)\s+(?:(?:it|this|that|them|up|what|you|i|we)\s+){0,4}(?:[\w'-]{1,40}\s+){0,4}?(?:in|into|to)\s+(?:(?:the\s+|our\s+)?(?:[\w#-]{1,40}\s+)?channel\b|#[\w-]{1,80})/gi,
    ' send post message channel ',
  ],
  [/\b(?:up\s+or\s+(?:down|not)|down\s+or\s+(?:up|not))\b/gi, ' fetch request reachable '],
  [
    /\b(?:that\s+|which\s+)?(?:the\s+)?(?:authenticated|current|logged[\s-]in|signed[\s-]in)\s+user\s+(?:can\s+(?:access|see|view|read)|has\s+access\s+to|owns)\b/gi,
    ' my ',
  ],
  [/\b(?:where|place|places|somewhere|anywhere)\s+to\s+stay\b/gi, ' stay listing rental '],
  [/\bwhat\s+(?:should|do|shall)\s+(?:i|we)\s+(?:pack|bring|wear)\b/gi, ' weather forecast '],
  [
    /\b(?:multi|\d{1,2}|two|three|five|seven|ten)[\s-]day\s+outlook\b|\b(?:extended|long[\s-]range|weekly|weekend|week's)\s+outlook\b|\boutlook\s+for\s+(?:the\s+)?(?:week|weekend|tomorrow|next)\b/gi,
    ' forecast ',
  ],
];

/**
 * An operator's: "three copies running" and "bump the api to four pods" scale, "roll the service
 * back" rolls back, "spin up" and "kick off" start, reaching a remote service "as if it were local"
 * forwards a port, why a pod won't start asks to describe it (its events), "getting paged" is an
 * alert and "shut it up" mutes it, "500s" are HTTP errors, what is "listening on" a port is a
 * process, how much memory a program is using a process's usage (not the knowledge graph), what is
 * taking up the room a folder's sizes (and so is how much space something takes), answering yes
 * when a command asks an interaction with its process; keeping an eye on something is monitoring
 * it, waiting until a job finishes (or asking whether it is finished yet) checking its status, and
 * checks that are green a status of passing checks. A p95 is a latency metric. How a page does for
 * "real users" is real user monitoring, its load times performance; logging or filing a problem
 * "for" a team opens an issue, and the team it is for (or shared with) is somebody, no team to make
 * (it found the error tracker's create-team); so is "the product team" that asks for something,
 * unless a team is what is made, listed or removed. Whether something is still running asks a
 * process's status, and running the tests is a command for a terminal.
 */
const OPERATING: readonly Idiom[] = [
  [/\b(?:\d{1,3}|two|three|four|five|six|seven|eight|nine|ten)\s+(?:copies|instances)\b/gi, ' replicas scale '],
  [/\bto\s+(?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:pods|replicas|workers|nodes)\b/gi, ' replicas scale '],
  [/\broll(?:s|ed|ing)?\s+(?:[\w'-]{1,40}\s+){0,4}?back\b/gi, ' rollback rollout undo '],
  [/\bkick(?:s|ed|ing)?\s+off\b/gi, ' start run trigger '],
  [/\b(?:still|currently)\s+running\b/gi, ' process running status '],
  [
    /(?<!\bhow\s+to\s+)\brun\s+(?:the\s+|all\s+the\s+|my\s+|our\s+)?(?:unit\s+|integration\s+|e2e\s+|end-to-end\s+)?tests\b/gi,
    ' start process command terminal tests ',
  ],
  [/\b(?:finished|done|complete|completed|ready|over)\s+yet\b/gi, ' status '],
  [/\bas\s+(?:if|though)\s+(?:it|they)\s+(?:were|was|are|is)\s+local(?:ly)?\b/gi, ' port forward local '],
  [
    /\bwhy\s+(?:won't|wont|will\s+not|doesn't|does\s+not|isn't|can't|cannot|didn't)\s+(?:(?:the|my|our|this|that)\s+)?(?:[\w-]{1,40}\s+){0,2}?(?:pods?|containers?|deployments?|nodes?|jobs?)\s+(?:start|run|come\s+up|schedule|boot)\b/gi,
    ' $& describe status ',
  ],
  [/\bspin(?:s|ning)?\s+up\b|\bspun\s+up\b|\bfire\s+up\b/gi, ' start run '],
  [/\bshut\s+(?:it|them|that|this)\s+up\b|\bsilence\b/gi, ' mute silence '],
  [/\b(?:getting|got|get|been|being)\s+paged\b/gi, ' alert monitor '],
  [/\b(?:\d{3}s|[45]xx|[45]xxs)\b/gi, ' http error '],
  [/\b(?:is|are|what's|whats|anything|something)\s+(?:\w+\s+)?listening\s+on\b/gi, ' process list port '],
  [/\bkeep(?:s|ing)?\s+an\s+eye\s+on\b/gi, ' monitor watch '],
  [
    /\b(?:once|when|after)\s+(?:the|it|its|my|our)\s+(?:[\w-]{1,40}\s+)?(?:finishes|finished|completes|completed|is\s+done|is\s+finished)\b/gi,
    ' status check ',
  ],
  [/\bchecks?\s+(?:are\s+|is\s+)?(?:green|passing|passed|red|failing)\b/gi, ' checks status pass '],
  [
    /\b(?:answer|answers|answering|respond|reply|type|say)\s+(?:with\s+)?['"]?(?:yes|no|y|n)['"]?\s+(?:when|if|whenever)\s+(?:it|the\s+\w+)\s+(?:asks|prompts)\b/gi,
    ' interact input process ',
  ],
  [/\bhow\s+much\s+(?:memory|ram|cpu)\s+(?:(?:is|are|does|do)\s+)?(?=(?:[\w.-]{1,40}\s+){1,3}?(?:using|use|eating|taking)\b)/gi, ' process usage '],
  [/\breal[\s-]users?\b/gi, ' rum real user monitoring '],
  [/\bp(?:50|75|90|95|99|999)\b/gi, ' metrics percentile latency '],
  [/\b(?:page\s+)?load(?:ing)?\s+times?\b/gi, ' performance load time '],
  [/\b(?:log|file|raise)\s+(?:it|this|that|them|these)(?=\s+(?:for|with|to)\b)/gi, ' create issue ticket '],
  [/\b(?:for|with|on|in)\s+(?:the|my|our|your)\s+(?:[\w-]{1,20}\s+)?team\b/gi, ' '],
  [
    /(?<!\b(?:create|make|add|new|list|find|show|get|delete|remove|rename|join|leave|which|invite)\s+(?:(?:a|an|the|our|my)\s+)?)\b(?:the|our|my|your|their)\s+[\w-]{1,20}\s+team\b(?!\s+(?:members?|named|called|slug|id|settings)\b)/gi,
    ' ',
  ],
  [/\bhow\s+much\s+(?:disk\s+)?(?:space|room|storage)\b/gi, ' size disk usage '],
  [/\btaking\s+up\s+(?:all\s+)?(?:the|so\s+much|too\s+much)?\s*(?:room|space)\b/gi, ' size disk usage '],
];

/**
 * A personal assistant's: what is "on my plate" is tasks and events; checking my inbox for
 * something is searching it; being double-booked is a clash of busy times; a 1:1, a standup, a
 * sync-up or a catch-up is a meeting (and finding thirty minutes for one a question of free time;
 * pinging a channel a message to it), and so is "a 30 minute call with Sam" (a call logged in a CRM
 * stays a call); logging the call or the meeting one had is a CRM's engagement ("log" found log
 * readers 65th), and so is writing down that I "had a call with" someone; moving a deal to a stage
 * ("Closed Won") updates it; "remind yourself", "keep in mind" and "note to self" are remembering;
 * inviting somebody to something adds an attendee to an event ("Thursday's design review" found
 * pull-request reviews); what somebody "sent me" came by mail; what "Tom recommended" is something
 * to recall; getting or writing back to someone replies, the same message I sent someone else is
 * forwarded, a half-written one a draft, one to send "not now" scheduled, a file that came with an
 * email its attachment; a thumbs up is a reaction; putting Lena on a card (so she owns it) assigns
 * her, who else can see something asks its collaborators; what I found, logged on a card (or put in
 * a comment on a PR), is a comment; a place within walking distance is nearby; a job title is in a
 * user's profile; emails from somebody are a search of the mailbox, and "todo: buy stamps" a task
 * to create; and somebody else's GitHub or LinkedIn profile is something about them (it found
 * GitHub's tools); adding something to my to-do list creates a task (a task manager's
 * add-a-tag-to-a-task tools came first); a house that "sleeps eight" is a rental for guests; a
 * conference talk, and what its speaker said, a video's transcript; a dial-in or Zoom link is a
 * meeting's. Who reports to whom is a relation. What I have on file (or know) about somebody is a
 * search of memory, writing down that something is so an observation to keep, everything connected
 * to a project its nodes and relations, and what isn't so anymore (or no longer is) a fact to
 * remove.
 * Keeping the key numbers in my knowledge graph is remembering them.
 */
const ASSISTING: readonly Idiom[] = [
  [/\bon\s+(?:my|our|your|his|her|their)\s+plate\b/gi, ' tasks calendar events '],
  [/\bdouble[\s-]?booked\b|\boverlapping\s+(?:meetings|events)\b/gi, ' freebusy busy conflict '],
  [/\bcheck\s+(?=(?:my|our|the)\s+(?:inbox|gmail|outlook|e-?mails?|mail|mailbox|messages|dms|channel|calendar)\s+for\b)/gi, ' search '],
  [/\b(?:1:1|1-on-1|one[\s-]on[\s-]one|stand-?up|catch[\s-]up|sync[\s-]up)s?\b/gi, ' meeting event '],
  [
    /\bfind\s+(?:(?:\d{1,3}|ten|fifteen|twenty|thirty|forty-five|sixty)\s+minutes|an?\s+hour|half\s+an\s+hour|(?:an?\s+)?(?:free\s+)?(?:slot|time|window|gap))\s+(?:for|to|when)\b/gi,
    ' free busy freebusy ',
  ],
  [/\bping\s+(?=(?:the\s+|our\s+)?(?:#[\w-]|[\w#-]{1,40}\s+channel\b))/gi, ' send message post '],
  [
    /\b(?:i|we)\s+(?:just\s+)?(?:had|did)\s+(?:a|an|the|our|my)\s+(?:[\w-]{1,40}\s+){0,2}?(?:call|meeting|chat|conversation)\s+with\b/gi,
    ' log crm engagement call with ',
  ],
  [/\bclosed[\s-](?:won|lost)\b/gi, ' deal stage '],
  [/\bmove\s+(?:the|this|that|my|our)\s+(?:[\w'-]{1,40}\s+){0,3}?(?:deal|opportunity|lead)\s+to\b/gi, ' update deal stage '],
  [/\blog(?:s|ged|ging)?\s+(?:a|the|my|our|this|that)\s+(?=(?:[\w-]{1,40}\s+){0,1}(?:call|meeting|conversation|note)\b)/gi, ' crm engagement create '],
  [/\b[Ii]nvit(?:e|es|ed|ing)\s+(?:[A-Z][\w'-]{1,40}(?:\s+[A-Z][\w'-]{1,40})?|him|her|them|everyone|the\s+team)\s+to\b/g, ' add attendee event update '],
  [/\badd\s+(?:[\w'-]{1,40}\s+){0,6}?to\s+(?:my|our|the|your)\s+(?:todo|to-do)(?:s|\s+list)?\b(?!\s+(?:column|board|lane))/gi, ' create task todo '],
  [/\b(?:dial[\s-]?in|zoom|meet|video|conference|call)\s+(?:link|number|details|url)\b/gi, ' meeting event conference '],
  [
    /\b(?:conference|tech|recorded|keynote|ted)\s+talks?\b|\bwhat\s+(?:the\s+)?(?:speaker|presenter|host|lecturer)s?\s+(?:said|says|talked\s+about|covered)\b/gi,
    ' video transcript ',
  ],
  [/\bsleeps?\s+(?:\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|twelve)\b/gi, ' stay rental guests '],
  [/\bput\s+(?=[A-Z][a-z]{1,40}\s+on\s+(?:the|this|that)\b)|\bso\s+(?:she|he|they)\s+owns?\s+it\b/g, ' assign member '],
  [
    /\bwho\s+(?:else\s+)?(?:can|could|is\s+able\s+to)\s+(?:see|view|access|edit|open)\b|\bwho\s+(?:else\s+)?has\s+access\s+to\b/gi,
    ' collaborators members shared access ',
  ],
  [/\bwhat\s+(?:do|did)\s+(?:i|we|you)\s+(?:have\s+on\s+file|have\s+(?:noted|stored|saved|recorded)|know|remember)\s+about\b/gi, ' search memory knowledge '],
  [/\b(?:write|jot|note|put)\s+down\s+that\b|\bmake\s+a\s+note\s+that\b/gi, ' remember observation '],
  [/\b(?:everything|anything|all|whatever\s+is)\s+(?:connected|related|linked)\s+to\b/gi, ' nodes relations search '],
  [
    /\b(?:isn't|isn\u2019t|is\s+not|aren't|are\s+not|doesn't|does\s+not|don't|do\s+not)\b(?=[^.;!?]{0,60}?\banymore\b)|\bno\s+longer\s+(?=(?:works|work|reports|lives|is|owns|manages|leads|belongs|uses)\b)/gi,
    ' delete remove ',
  ],
  [
    /\b(?:keep|save|store|put|add|record|note)\s+(?:[\w'-]{1,40}\s+){0,5}?(?:in|to|into)\s+(?=(?:my|the|our|your)\s+(?:knowledge\s+graph|memory)\b)/gi,
    ' remember observation entities ',
  ],
  [/\bremind\s+yourself\b|\b(?:keep|bear)\s+in\s+mind\b|\bnote\s+to\s+self\b/gi, ' remember memory '],
  [
    /(?<!\b(?:log|logs|logged|logging|record|records|recorded|recording)\s+)\b(?:a|an|the|our|my)\s+(?:(?:\d{1,3}[\s-]?(?:minute|min|hour)s?|quick|short|brief|video|phone|zoom|intro)\s+){0,2}call\s+with\b/gi,
    ' meeting event with ',
  ],
  [/\b(?:sent|emailed|mailed|forwarded)\s+(?:me|us)\b/gi, ' email received '],
  [/\b(?:ever\s+)?(?:get|gets|got|gotten)\s+back\s+to\s+(?:me|us)\b/gi, ' email received reply search '],
  [/\b(?:get|gets|got|write|writes|wrote|writing)\s+back\s+to\b/gi, ' reply respond to '],
  [/\bthe\s+same\s+(?:message|email|e-mail|mail|note)\s+(?:that\s+)?(?:i|we)\s+(?:sent|emailed|wrote)\b/gi, ' forward email sent '],
  [/\bhalf[\s-](?:written|finished|done)\b|\bunfinished\s+(?:email|message|note|reply|letter)\b/gi, ' draft '],
  [/\bnot\s+(?:right\s+)?now\b/gi, ' schedule later '],
  [/\b(?:came|comes|attached)\s+(?:with|to|in)\s+(?:the|that|this|an?|her|his|their|my)\s+(?:e-?mail|message|mail)\b/gi, ' attachment email download '],
  [/\bthumbs?[\s-]up\b|\bemoji\b/gi, ' reaction emoji add '],
  [/\bjob\s+titles?\b/gi, ' user profile title '],
  [/\breports?\s+to\b/gi, ' relation reports to '],
  [/\b(e-?mails?|mails|messages)\s+from\b/gi, ' $1 search from '],
  [/^\s*(?:todo|to-do|task|reminder)\s*:/gi, ' create task '],
  [/\b(?:within\s+(?:walking|driving|cycling|biking)\s+distance\s+of|walkable\s+from)\b/gi, ' nearby places near '],
  [
    /\b(?:log|note|record|write|put)\s+(?:it|this|that|them|what\s+(?:you|i|we)\s+(?:find|found|see|saw|learn|learned|learnt))\s+(?=(?:on|in|to)\s+(?:the|that|this|our|my)\s+(?:[\w-]{1,40}\s+)?(?:card|ticket|issue|task)\b)|\b(?:in|as|with)\s+a\s+comment\s+on\s+(?=(?:the|this|that|my|our)\s+(?:pr|pull\s+request|issue|ticket|card|task|page)\b)/gi,
    ' add comment ',
  ],
  [/\b(?:their|his|her)\s+[A-Z][\w.-]{1,40}\s+(?=(?:profiles?|accounts?|handles?|usernames?)\b)/g, ' '],
  [/\b[A-Z][a-z]{1,40}\s+(?:recommended|mentioned|suggested|told\s+(?:me|us)\s+about)\b/g, ' recall '],
];

/**
 * A browser's: going to, opening, loading or visiting a page or a site is navigating to it; typing
 * "my email into the newsletter box" is typing into a field (the email is what is typed: it asked
 * for the mail tools), and so is using the search box; "at mobile size" is a viewport to resize;
 * capturing something as an image is a screenshot; hitting Enter presses a key (it "clicked"); dark
 * mode is a media emulation; a dropdown is a select's options (its "drop" deleted), JavaScript
 * errors the console's messages; adding to the end of a page appends blocks to it.
 * What is in the In Progress list are a board's cards.
 */
const BROWSING: readonly Idiom[] = [
  [
    /\b(?:to|at|onto)\s+the\s+(?:bottom|end)\s+of\s+(?:the|my|our|this|that|a)\s+(?:[\w-]{1,40}\s+){0,2}?(?:page|doc|document|note|notes)\b/gi,
    ' append block children page ',
  ],
  [
    /\b(?:type|types|typed|typing|enter|fill\s+in|paste)\s+(?:(?:my|the|your|our|a|an|this|that)\s+)?(?:[\w'-]{1,40}\s+){0,2}?(?:into|in)\s+(?=(?:(?:the|a|an|this|that)\s+)?(?:[\w-]{1,40}\s+){0,2}?(?:box|field|input|textbox|text\s+box|search\s+bar)\b)/gi,
    ' type text field ',
  ],
  [
    /\b(?:(?:go|goes|going|went|head|browse)\s+to|open|opens|opening|load|loads|loading|visit|visits|visiting)\s+(?=(?:the\s+|this\s+|that\s+|a\s+|our\s+|my\s+|their\s+)?(?:[\w-]{1,40}\s+){0,2}(?:page|site|website|url|homepage|landing\s+page)\b)/gi,
    ' navigate ',
  ],
  [/\b(?:(?:using|in|with|via|through)\s+(?:the|its|a)\s+)?search\s+(?:box|bar|field|input)\b/gi, ' type text field '],
  [/\b(?:at|in|to)\s+(?:a\s+)?(?:mobile|phone|tablet|desktop)[\s-]?(?:size|sized|width|viewport)\b|\bphone[\s-]sized\b/gi, ' resize viewport '],
  [/\bdrop[\s-]?down\b/gi, ' dropdown select option '],
  [/\bin\s+the\s+(?=(?:[A-Z][\w'-]{0,40}\s+){1,3}(?:list|column|lane)\b)/g, ' cards in the '],
  [
    /\b(?:hit|hits|press|presses|pressed|tap|push)\s+(?:the\s+)?(?:enter|return|escape|esc|tab|space(?:bar)?|backspace|arrow\s+(?:up|down|left|right)|(?:up|down|left|right)\s+arrow|f\d{1,2})\b(?:\s+key)?/gi,
    ' press key ',
  ],
  [
    /\b(?:in|with|under|using|to)\s+(?:the\s+)?(?:dark|light)\s+(?:mode|theme|color\s+scheme)\b(?!\s+(?:flag|feature|toggle|setting))|\bwith\s+reduced\s+motion\b/gi,
    ' emulate media color scheme ',
  ],
  [/\b(?:javascript|js|console|browser)\s+(?:errors?|warnings?|logs?|messages?|output)\b/gi, ' console messages '],
  [/\b(?:capture|grab)\s+(?:(?:the|a|an|this|that|our|my)\s+)?(?:[\w-]{1,40}\s+){0,3}?(?:as\s+an?\s+)?(?:image|picture|png|screenshot)\b/gi, ' screenshot '],
  [
    /\bscreenshots?\s+of\s+(?:the\s+|a\s+)?(?:[\w.-]{1,40}\s+){0,3}?(?:homepage|home\s+page|landing\s+page|page|site|website|url)\b/gi,
    ' screenshot navigate $& ',
  ],
];

/**
 * An analyst's: a count or a sum "per day", "by region" is an aggregate over grouped rows (it found
 * the days-in-a-month tool); "how many" is a count (its "many" found delete-many); a chart said by
 * its shape (nested rectangles, boxes and arrows, nodes and links, states coloured by sales, a
 * filling gauge) is the chart that draws it; pulling or picking out names or dates extracts them;
 * adding a row (or adding them to a table) inserts a record (it found the tools that create
 * tables); whether something is valid asks to validate it; speeding up lookups is an index; setting
 * a field "of every" order updates many; flagging discrepancies or outliers is finding them, no
 * feature flag. How often something happens is a frequency. What comes from the database is a
 * query's rows, and what comes from the shared mailbox its emails.
 * Querying the billing table is a query (the table tools came first).
 */
const ANALYSING: readonly Idiom[] = [
  [/\b(?:per|each)\s+(?:day|week|month|hour|year|quarter|region|country|customer|user|product|category)\b/gi, ' aggregate group count '],
  [/\bhow\s+many\b/gi, ' count '],
  [/\bquery\s+(?=(?:the|a|our|my|this|that)\s+(?:[\w-]{1,40}\s+)?(?:tables?|collections?|db|database)\b)/gi, ' query sql select '],
  [/\b(?:from|out\s+of)\s+(?:the|our|my|a)\s+(?:[\w-]{1,40}\s+)?(?:database|db)\b/gi, ' $& query sql '],
  [/\b(?:from|in|out\s+of)\s+(?:the|our|my)\s+(?:shared\s+|support\s+|team\s+)?(?:mailbox|inbox)\b/gi, ' $& emails search '],
  [/\bhow\s+often\b/gi, ' frequency count '],
  [/\bnested\s+(?:rectangles|boxes|squares|tiles)\b/gi, ' treemap hierarchical chart '],
  [/\bboxes\s+and\s+arrows\b|\bflow\s*charts?\b/gi, ' flow diagram process steps '],
  [/\bnodes\s+and\s+(?:links|edges|lines)\b/gi, ' network graph relationships '],
  [
    /\b(?:colou?r|shade)\s+(?:each|every|the)\s+(?:states?|country|countries|regions?|districts?|county|counties|provinces?)\s+by\b|\bchoropleth\b/gi,
    ' district map regional distribution ',
  ],
  [/\b(?:filling|fill|progress)\s+(?:gauge|bar|level)\b|\bshare\s+of\s+(?:the\s+)?(?:target|goal|quota)\b/gi, ' percentage completion chart '],
  [/\b(?:pull|pulls|pulled|pulling|pick|picks|picked|picking)\s+out\b/gi, ' extract '],
  [/\b(?:is|are)\s+(?:still\s+)?valid\b/gi, ' validate valid '],
  [/\b(?:speed\s+up|faster|slow)\s+(?:the\s+)?(?:lookups|queries|searches|reads|sorting)\b/gi, ' create index '],
  [/\bset\s+(?:the\s+)?[\w-]{1,40}\s+(?:of|on|for)\s+(?:every|all|each)\b/gi, ' update many '],
  [/\b(?:add|insert)\s+(?:(?:a|an|one|two|three|the|some)\s+)?(?:new\s+)?rows?\b/gi, ' create insert record row '],
  [
    /\badd\s+(?:them|it|these|those|this|that|each(?:\s+one)?)\s+(?:to|into)\s+(?:the|our|my|a)\s+(?:[\w-]{1,40}\s+)?(?:table|sheet|base)\b/gi,
    ' create insert record row ',
  ],
  [/\bflag(?:s|ged|ging)?\s+(?:(?:any|all|the|each|every)\s+)?(?=(?:discrepanc|mismatch|difference|anomal|outlier|inconsistenc)[a-z]{0,10}\b)/gi, ' find '],
];

/**
 * A question about the world ("who won the world cup", "the population of Japan", "the history of
 * the Eiffel Tower", "the exchange rate") asks for facts from the web: its words named no tool
 * ("who" found git blame, "history" logs). Only before a capitalised name, where it could be a
 * repository's or a card's history. "Who last changed it" and "which flags changed" ask an audit
 * log as well as git's blame and log (a flag's history was 37th, then 36th). Who a person with a
 * full name was is a fact too ("who was Ada Lovelace"); digging into something, a deep dive, is
 * research. Open-source projects are repositories to search (they found MongoDB's knowledge search
 * 377th). The price of something with a name is a fact too ("the current price of Bitcoin"
 * found the clock); a cited or well-sourced answer is research.
 */
const ASKING_THE_WORLD: readonly Idiom[] = [
  [/\bwho\s+(?:won|invented|founded|discovered|painted|directed|composed)\b/gi, ' facts web search '],
  [/\b[Ww]ho\s+(?:was|were|is)\s+(?=[A-Z][a-z]{1,40}\s+[A-Z][a-z]{1,40})/g, ' facts web search '],
  [/\bdig\s+(?:deep\s+)?into\b|\bdeep[\s-]dive\b|\bin[\s-]depth\b/gi, ' research deep '],
  [/\bwho\s+(?:last\s+|just\s+|recently\s+)?(?:changed|modified|edited|updated|touched|toggled|flipped|turned|deleted|removed)\b/gi, ' who changed audit '],
  [/\b(?:which|what)\s+(?:[\w-]{1,40}\s+){1,3}?(?:changed|were\s+changed|got\s+changed|were\s+modified)\b/gi, ' $& audit '],
  [
    /\b(?:[Pp]opulation|[Cc]apital|[Pp]resident|[Pp]rime\s+[Mm]inister|CEO|[Cc]eo|[Ff]ounder|[Hh]istory|[Oo]rigin)\s+of\s+(?:the\s+)?(?=[A-Z])/g,
    ' facts web search ',
  ],
  [/\b(?:exchange\s+rates?|stock\s+price|share\s+price)\b/gi, ' facts web search '],
  [/\b[Pp]rices?\s+of\s+(?:an?\s+|the\s+)?(?=[A-Z][a-z])/g, ' facts web search '],
  [/\b(?:cited|well[\s-]sourced|with\s+(?:citations|sources|references))\b/gi, ' research citations sources '],
  [/\bopen[\s-]source\s+(?:projects?|libraries|library|tools?|repos?|repositories|alternatives?)\b/gi, ' repositories search '],
];

/**
 * A programmer's: a how-to ("how do I configure retries in axios", "how to define a relation") asks
 * a library's documentation (the library's own name is seldom in any tool's text; only before a
 * programmer's verb: "how do I drive to Boston" asks for directions); where something is defined, a
 * change "across the project" and "TODO comments" are code to search (the comments found the task
 * apps'); discarding or throwing away changes is checking the file out again (a file editor came
 * first); files (or messages, pages, tickets) that contain or mention something are a search of
 * their content, and where a file (or whether it exists) is a search for it, when it was last
 * changed its info; what is modified locally is the working tree's status, the recent changes to
 * some code its log of commits; pages pushed into a vector index are upserted records.
 * Running this JavaScript (or Python) runs a snippet of code.
 */
const PROGRAMMING: readonly Idiom[] = [
  [
    /\bhow\s+(?:(?:do|can|should|would|could)\s+(?:i|we|you|one)|to)\s+(?=(?:configure|set\s+up|setup|install|use|define|implement|paginate|handle|enable|import|initiali[sz]e|mock|migrate|integrate|authenticate|declare|render|type|style|validate|serialize|parse|debounce|memoize)\b)/gi,
    ' documentation library ',
  ],
  [/\bwhere\s+(?:[\w'-]{1,40}\s+){1,4}?(?:is|are|was|were|gets?)\s+(?:defined|declared|implemented|initiali[sz]ed|exported)\b/gi, ' code search definition '],
  [/\bacross\s+(?:the|this|our|my|a)\s+(?:whole\s+|entire\s+)?(?:project|codebase|code\s+base|repo|repository|code|files|source)\b/gi, ' code search files '],
  [
    /\b(?:discard|discards|discarded|throw\s+away|undo|revert|reverts|reverted)\s+(?:(?:the|my|all|any|these|those|our)\s+)?(?:local\s+|uncommitted\s+|unstaged\s+|working\s+)?(?:changes|edits|modifications)\b/gi,
    ' discard changes checkout restore reset ',
  ],
  [
    /\b(?:recent|latest|last\s+few)\s+(?:changes|commits)\s+(?:to|in|on)\s+(?:the\s+|our\s+|my\s+)?(?:[\w-]{1,40}\s+){0,2}?(?:code|repo|repository|codebase|service|branch|module|file)\b/gi,
    ' log commits history ',
  ],
  [
    /\b(?:modified|changed|edited)\s+locally\b|\blocally\s+(?:modified|changed|edited)\b|\blocal\s+(?:changes|modifications|edits)\b/gi,
    ' status diff uncommitted ',
  ],
  [
    /\brun\s+(?:this|that|the|my|some|a)\s+(?:little\s+|quick\s+|short\s+)?(?:javascript|python|js|typescript|ruby|go|bash|php|perl|lua)\b(?!\s+(?:file|script\s+file|project))/gi,
    ' run code snippet ',
  ],
  [/\b(?:TODO|FIXME|XXX|HACK)s?\s+(?:comments?|markers?|notes?)\b/g, ' code text search '],
  [/\bwhere\s+(?:is|are|was|were)\s+(?:(?:the|my|our|a|that)\s+)?files?\b/gi, ' find search files '],
  [
    /\b(?:push|pushes|pushed|load|loads|loaded|put|insert|add)\s+(?:[\w'-]{1,40}\s+){0,4}?(?:into|to)\s+(?:the\s+|our\s+|a\s+)?(?:[\w-]{1,40}\s+)?(?:vector\s+)?index\b/gi,
    ' upsert records index ',
  ],
  [
    /\bwhen\s+(?:did|was|were|has|have)\s+(?:i|we|you|it|this|that|the\s+file|someone|anyone)\s+(?:last\s+)?(?:change|changed|modify|modified|edit|edited|update|updated|touch|touched)\b/gi,
    ' modified time info ',
  ],
  [/\b(?:files?|folders?|directory|directories)\s+(?:(?:called|named)\s+)?(?:[\w.'"-]{1,60}\s+)?(?:exists?|is\s+there)\b/gi, ' file search find info '],
  [
    /\b(files?|messages?|e-?mails?|mails?|pages?|documents?|docs?|notes?|tickets?|issues?|threads?|comments?)\s+(?:(?:[\w'-]{1,40}\s+){0,4}?(?:that|which)\s+)?(?:contain|contains|containing|mention|mentions|mentioning|reference|references|referencing)\b/gi,
    ' $1 search content ',
  ],
];

const IDIOMS = [...CONVERSATION_AND_TIME, ...ASKING, ...OPERATING, ...ASSISTING, ...BROWSING, ...ANALYSING, ...ASKING_THE_WORLD, ...PROGRAMMING];

/** `text` with each idiom read. */
export function idiomsRead(text: string): string {
  let out = text;
  for (const [pattern, words] of IDIOMS) out = out.replace(pattern, words);
  return out;
}
