/**
 * The idioms of everyday requests (ranking/idioms.ts applies them): time, talk and plans, questions
 * about a set or about the world, and a personal assistant's errands.
 */
import type { Idiom } from './idiom.js';

/**
 * Time, talk and plans said as people say them: "the whole back and forth (or back-and-forth) with
 * the landlord" is a conversation's thread, "how long does it take to get to the airport" a travel
 * time, "my schedule" the calendar's events (not a scheduled e-mail), "shouldn't slip my mind" a
 * reminder, "block off Friday afternoon" a calendar event, and so is a trip "blocked on my
 * calendar" or a visit put on it; "month by month" a trend over time; what time it will be in
 * Tokyo "when it is 9am in Berlin" a conversion between zones.
 */
export const CONVERSATION_AND_TIME: readonly Idiom[] = [
  [/\bback[\s-]+and[\s-]+forth\b/gi, ' conversation thread '],
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
 * batch of matches more results; what the team ought to hear is a message to post. Whether there is
 * already a page for something asks to search for it; whether I have told you something asks
 * memory. Which account I am signed in to (or who I am signed in as) asks who I am; which teams
 * (organizations, groups) I belong to asks for those I have access to; which board
 * (project, workspace) I am working on asks for the active one. Who owns something asks for its
 * owner, and how it is set up (configured) for its configuration.
 */
export const ASKING: readonly Idiom[] = [
  [/\bwho\s+owns\b/gi, ' who owner '],
  [/\bhow\s+(?:is|are|was|were)\s+(?:[\w'-]{1,40}\s+){1,4}?(?:set\s+up|configured)\b/gi, ' $& configuration settings '],
  [/\b(?:which|what)\s+([\w-]{2,40})\s+am\s+i\s+(?:currently\s+)?(?:working\s+(?:on|in)|using|in)\b/gi, ' $1 active current '],
  [/\b(?:which|what)\s+([\w-]{2,40})\s+(?:do|am|are)\s+(?:i|we)\s+(?:(?:a\s+)?members?\s+of|belong(?:ing)?\s+to|part\s+of)\b/gi, ' $1 access member '],
  [
    /\b(?:(?:which|what)\s+(?:account|user(?:name)?|login|identity)\s+am\s+i|who\s+am\s+i)\s+(?:currently\s+|now\s+)?(?:logged|signed)\s+(?:in|on)(?:to|\s+(?:as|with|to))?\b/gi,
    ' whoami current user me ',
  ],
  [
    /\b(?:what|which)\s+(?:columns|fields|attributes|keys)\s+(?:does|do|did|can|are|is)\b(?=\s+(?:[\w'-]{1,40}\s+){0,4}?(?:tables?|collections?|documents?|records?|rows?|databases?|db)\b)/gi,
    ' schema fields ',
  ],
  [
    /\b(?:which|what)\s+(?=(?:[\w-]{1,40}\s+){0,2}[\w-]{2,40}s\s+(?:are|were|have|had|do|did|need|exist)\b)|\bare\s+there\s+any\b|\bwhich\s+of\s+(?:my|our|the|your)\s+(?=[\w-]{2,40}s\b)/gi,
    ' list ',
  ],
  [/\bgive\s+(?:me|us)\b/gi, ' get '],
  [
    /\bis\s+there\s+(?:already\s+)?(?:a|an|any)\s+(?=(?:[\w-]{1,40}\s+){0,2}?(?:page|doc|document|card|issue|ticket|task|channel|note)\s+(?:for|about|on)\b)/gi,
    ' search existing ',
  ],
  [/\b(?:have|had|did)\s+(?:i|we)\s+(?:ever\s+)?(?:told|tell|mentioned|mention|said|say)\s+(?:to\s+)?you\b/gi, ' recall memory search '],
  [/\bwhat(?:'s|\u2019s|\s+is|\s+are)\s+(?:still\s+)?left\b/gi, ' list remaining incomplete '],
  [/\bnext\s+(?:batch|page|set)\s+of\b|\bmore\s+(?:matches|results|hits)\b/gi, ' more results '],
  [/(?<!\b(?:i|we|you)\s+)\b(?:ought\s+to|should|needs?\s+to|must|has\s+to|have\s+to)\s+(?:hear|know|be\s+told)\b/gi, ' send message post '],
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
 * A personal assistant's: what is "on my plate" is tasks and events; checking my inbox for
 * something is searching it; being double-booked is a clash of busy times; a 1:1, a standup, a
 * sync-up or a catch-up is a meeting (and finding thirty minutes for one a question of free time;
 * pinging a channel a message to it), and so is "a 30 minute call with Sam" (a call logged in a CRM
 * stays a call); logging the call or the meeting one had is a CRM's engagement (and so is a
 * logged call or meeting, read back: it found log readers first; "log" found log
 * readers 65th), and so is writing down that I "had a call with" someone; moving a deal to a stage
 * ("Closed Won") updates it; "remind yourself", "keep in mind" and "note to self" are remembering;
 * inviting somebody to something adds an attendee to an event ("Thursday's design review" found
 * pull-request reviews); what somebody "sent me" came by mail; what "Tom recommended" is something
 * to recall; getting or writing back to someone replies, the same message I sent someone else is
 * forwarded, a half-written one a draft, one to send "not now" scheduled, a file that came with an
 * email its attachment; a thumbs up is a reaction, and so is reacting with something; putting Lena
 * on a card (so she owns it) assigns her, who else can see something asks its collaborators; what I
 * found, logged on a card (or put in a comment on a PR), is a comment; a place within walking
 * distance is nearby; a job title is in a user's profile; emails from somebody are a search of the
 * mailbox, and "todo: buy stamps" a task to create; and somebody else's GitHub or LinkedIn profile
 * is something about them (it found GitHub's tools); adding something to my to-do list creates a
 * task (a task manager's add-a-tag-to-a-task tools came first); a house that "sleeps eight" is a
 * rental for guests; a conference talk, and what its speaker said, a video's transcript; a dial-in
 * or Zoom link is a meeting's. Who reports to whom is a relation. What I have on file (or know)
 * about somebody is a search of memory, writing down that something is so an observation to keep,
 * everything connected to a project its nodes and relations, and what isn't so anymore (or no
 * longer is) a fact to remove.
 * Keeping the key numbers in my knowledge graph is remembering them.
 * Whoever wrote to me sent mail; whether it is still business hours somewhere asks the time there.
 * Breaking (or splitting) a task, story or ticket into pieces makes its subtasks. Fixing a typo
 * (or the wording) in something edits it; a task that waits on another depends on it; not getting
 * alerts or notifications asks to check how they are set up.
 */
export const ASSISTING: readonly Idiom[] = [
  [
    /\bfix(?:es|ed|ing)?\s+(?:the\s+|a\s+|my\s+|that\s+|this\s+|some\s+)?(?:typos?|spelling|misspellings?|wording|grammar)\s+(?:in|on|of)\b/gi,
    ' $& update edit ',
  ],
  [
    /\bwait(?:s|ing)?\s+(?:on|for)\s+(?:the\s+|a\s+|our\s+|my\s+)?(?:[\w'-]{1,40}\s+){0,3}?(?:task|ticket|issue|story|card|step)\b/gi,
    ' $& dependency depends ',
  ],
  [
    /\b(?:not|never|no\s+longer|stopped)\s+(?:getting|receiving|seeing)\s+(?:any\s+)?(?:desktop\s+|push\s+|email\s+|mail\s+)?(?:alerts|notifications)\b/gi,
    ' $& notification setup check ',
  ],
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
  [/\blogged\s+(?=(?:phone\s+|sales\s+)?(?:calls?|meetings?|conversations?)\b)/gi, ' crm engagement '],
  [/\b[Ii]nvit(?:e|es|ed|ing)\s+(?:[A-Z][\w'-]{1,40}(?:\s+[A-Z][\w'-]{1,40})?|him|her|them|everyone|the\s+team)\s+to\b/g, ' add attendee event update '],
  [/\badd\s+(?:[\w'-]{1,40}\s+){0,6}?to\s+(?:my|our|the|your)\s+(?:todo|to-do)(?:s|\s+list)?\b(?!\s+(?:column|board|lane))/gi, ' create task todo '],
  [
    /\b(?:break|breaks|breaking|broke|split|splits|splitting)\s+(?:(?:the|this|that|my|our|an?)\s+)?(?:[\w'-]{1,40}\s+){0,2}?(?:task|ticket|issue|story|epic|card|item|todo|to-do)\s+(?:down\s+|up\s+)?into\b/gi,
    ' $& subtask create ',
  ],
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
  [/\b(?:sent|emailed|mailed|forwarded)\s+(?:me|us)\b|\b(?:write|wrote|written)\s+to\s+(?:me|us)\b/gi, ' email received '],
  [/\b(?:business|working)\s+hours\b/gi, ' current time timezone '],
  [/\b(?:ever\s+)?(?:get|gets|got|gotten)\s+back\s+to\s+(?:me|us)\b/gi, ' email received reply search '],
  [/\b(?:get|gets|got|write|writes|wrote|writing)\s+back\s+to\b/gi, ' reply respond to '],
  [/\bthe\s+same\s+(?:message|email|e-mail|mail|note)\s+(?:that\s+)?(?:i|we)\s+(?:sent|emailed|wrote)\b/gi, ' forward email sent '],
  [/\bhalf[\s-](?:written|finished|done)\b|\bunfinished\s+(?:email|message|note|reply|letter)\b/gi, ' draft '],
  [/\bnot\s+(?:right\s+)?now\b/gi, ' schedule later '],
  [/\b(?:came|comes|attached)\s+(?:with|to|in)\s+(?:the|that|this|an?|her|his|their|my)\s+(?:e-?mail|message|mail)\b/gi, ' attachment email download '],
  [/\bthumbs?[\s-]up\b|\bemoji\b/gi, ' reaction emoji add '],
  [/\breact(?:s|ed|ing)?\s+with\b/gi, ' reaction emoji add '],
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
export const ASKING_THE_WORLD: readonly Idiom[] = [
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
