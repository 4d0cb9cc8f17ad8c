/**
 * The idioms of work requests (ranking/idioms.ts applies them): an operator's, a browser's, an
 * analyst's and a programmer's.
 */
import type { Idiom } from './idiom.js';

/**
 * An operator's: "three copies running" and "bump the api to four pods" scale, "roll the service
 * back" rolls back, "spin up" and "kick off" start, "tear down" cleans up, reaching a remote
 * service "as if it were local" forwards a port, why a pod won't start asks to describe it (its
 * events), "getting paged" is an alert and "shut it up" mutes it (alerting on it again unmutes
 * it), "500s" are HTTP errors, what is "listening on" a port is a process, how much memory a
 * program is using a process's usage (not the knowledge graph), what is taking up the room a
 * folder's sizes (and so is how much space something takes), answering yes
 * when a command asks an interaction with its process; keeping an eye on something is monitoring
 * it, waiting until a job finishes (or asking whether it is finished yet) checking its status, and
 * checks that are green a status of passing checks (a build, pipeline or test run that is green or
 * red asks its status too). A p95 is a latency metric. How a page does for
 * "real users" is real user monitoring, its load times performance; logging or filing a problem
 * "for" a team opens an issue, and the team it is for (or shared with) is somebody, no team to make
 * (it found the error tracker's create-team); so is "the product team" that asks for something,
 * unless a team is what is made, listed or removed. Whether something is still running asks a
 * process's status, and running the tests is a command for a terminal. Whether something is up,
 * down, alive or responding asks for its health (a ping).
 * Anything on fire is an incident. Hanging up a call ends it. What runs every hour (daily,
 * nightly) runs on a cron schedule. Whether a server (an instance, a service) is healthy asks
 * for its health; whether pods or a deployment are is left to their status ("health" drew
 * other servers' health checks before kubectl's get and describe).
 */
export const OPERATING: readonly Idiom[] = [
  [/\b(?:\d{1,3}|two|three|four|five|six|seven|eight|nine|ten)\s+(?:copies|instances)\b/gi, ' replicas scale '],
  [/\bto\s+(?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:pods|replicas|workers|nodes)\b/gi, ' replicas scale '],
  [/\broll(?:s|ed|ing)?\s+(?:[\w'-]{1,40}\s+){0,4}?back\b/gi, ' rollback rollout undo '],
  [/\bkick(?:s|ed|ing)?\s+off\b/gi, ' start run trigger '],
  [/\bon\s+fire\b/gi, ' incidents alerts '],
  [/\bhang(?:s|ing)?\s+up\b|\bhung\s+up\b/gi, ' end terminate call '],
  [
    /\b(?:run|runs|running|execute|executes|trigger|triggers|fire|fires)\s+(?:[\w'-]{1,40}\s+){0,4}?(?:(?:every|each)\s+(?:\d{1,3}\s+)?(?:minutes?|hours?|days?|nights?|mornings?|evenings?|weeks?|weekdays?|months?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)|(?:once|twice)\s+an?\s+(?:hour|day|night|week|month)|hourly|daily|nightly|weekly|monthly)\b/gi,
    ' $& cron schedule recurring ',
  ],
  [/\b(?:servers?|instances?|services?|systems?|hosts?|sites?)\s+(?:(?:is|are)\s+)?(?:still\s+)?(?:healthy|unhealthy)\b/gi, ' $& health status '],
  [/\b(?:still|currently)\s+running\b/gi, ' process running status '],
  [
    /\b(?:is|are)\s+(?:[\w.-]{1,40}\s+){1,4}?(?<!\b(?:set|sign(?:ed)?|look(?:ed)?|pick(?:ed)?|back(?:ed)?|follow(?:ed)?|line[ds]?|made|make|open(?:ed)?|coming|going|fill(?:ed)?|hook(?:ed)?|wrap(?:ped)?|mix(?:ed)?|shut|turn(?:ed)?|slow(?:ed)?|calm(?:ed)?|cut|broken|written|wound|run)\s+)(?:up|down|alive|reachable|responding|online|offline)\b(?!\s+(?:to|for|with|by|on|the|a)\b)/gi,
    ' $& health status ping ',
  ],
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
  [/\b(?:tear(?:s|ing)?|tore|torn)\s+((?:[\w'-]{1,40}\s+){0,4}?)down\b|\bteardown\b/gi, ' cleanup delete $1 '],
  [/\bshut\s+(?:it|them|that|this)\s+up\b|\bsilence\b/gi, ' mute silence '],
  [
    /\b(?:start|resume|turn\s+(?:back\s+)?on)\s+(?:alerting|alerts|paging|monitoring)\s+(?:on|for|about)\s+((?:[\w.-]{1,60}\s+){1,3}?)again\b|\bun-?silence\b|\bstop\s+(?:silencing|muting)\b/gi,
    ' unmute alert $1 ',
  ],
  [/\b(?:getting|got|get|been|being)\s+paged\b/gi, ' alert monitor '],
  [/\b(?:\d{3}s|[45]xx|[45]xxs)\b/gi, ' http error '],
  [/\b(?:is|are|what's|whats|anything|something)\s+(?:\w+\s+)?listening\s+on\b/gi, ' process list port '],
  [/\bkeep(?:s|ing)?\s+an\s+eye\s+on\b/gi, ' monitor watch '],
  [
    /\b(?:once|when|after)\s+(?:the|it|its|my|our)\s+(?:[\w-]{1,40}\s+)?(?:finishes|finished|completes|completed|is\s+done|is\s+finished)\b/gi,
    ' status check ',
  ],
  [/\bchecks?\s+(?:are\s+|is\s+)?(?:green|passing|passed|red|failing)\b/gi, ' checks status pass '],
  [/\b(?:builds?|pipelines?|ci|tests?)\s+(?:(?:are|is)\s+)?(?:(?:still|all|now)\s+)?(?:green|passing|passed|red|failing)\b/gi, ' $& status pass '],
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
 * A browser's: going to, opening, loading or visiting a page or a site is navigating to it; typing
 * "my email into the newsletter box" is typing into a field (the email is what is typed: it asked
 * for the mail tools), and so is using the search box; "at mobile size" is a viewport to resize;
 * capturing something as an image is a screenshot; hitting Enter presses a key (it "clicked"); dark
 * mode is a media emulation; a dropdown is a select's options (its "drop" deleted), JavaScript
 * errors the console's messages; adding to the end of a page appends blocks to it.
 * What is in the In Progress list are a board's cards.
 */
export const BROWSING: readonly Idiom[] = [
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
 * the days-in-a-month tool); "how many" is a count (its "many" found delete-many), and how many
 * requests, hits or visits something got its analytics, its traffic; a chart said by
 * its shape (nested rectangles, boxes and arrows, nodes and links, states coloured by sales, a
 * filling gauge) is the chart that draws it; pulling or picking out names or dates extracts them;
 * adding a row (or adding them to a table) inserts a record (it found the tools that create
 * tables); whether something is valid asks to validate it; speeding up lookups is an index; setting
 * a field "of every" order updates many; flagging discrepancies or outliers is finding them, no
 * feature flag. How often something happens is a frequency. What comes from the database is a
 * query's rows, and what comes from the shared mailbox its emails.
 * Querying the billing table is a query (the table tools came first). Adding records or
 * documents to a collection inserts them (it found the tool that creates collections).
 */
export const ANALYSING: readonly Idiom[] = [
  [/\b(?:per|each)\s+(?:day|week|month|hour|year|quarter|region|country|customer|user|product|category)\b/gi, ' aggregate group count '],
  [/\bhow\s+many\s+(?:requests|hits|visits|visitors)\b/gi, ' $& analytics traffic '],
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
  [
    /\b(?:add|adds|added|adding|insert|inserts|load|loads|put|import)\s+(?:[\w'-]{1,40}\s+){0,5}?(?:records|documents|docs|entries|rows)\s+(?:to|into)\s+(?:the\s+|our\s+|my\s+|a\s+)?(?:[\w-]{1,40}\s+)?collection\b/gi,
    ' $& insert many documents ',
  ],
  [/\bflag(?:s|ged|ging)?\s+(?:(?:any|all|the|each|every)\s+)?(?=(?:discrepanc|mismatch|difference|anomal|outlier|inconsistenc)[a-z]{0,10}\b)/gi, ' find '],
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
 * Running this JavaScript (or Python) runs a snippet of code. A second working copy (or tree) of a
 * repository is a worktree. Pointing origin (or upstream) at a URL sets a git remote. Pulling
 * (getting, grabbing) the latest without merging it is a fetch, a download: neither that pull
 * nor the merge it says no to is a word of the request (each ranked pull and merge tools first).
 */
export const PROGRAMMING: readonly Idiom[] = [
  [/\b(?:point|points|pointed|set|change|switch|move)\s+(?:the\s+)?(?:origin|upstream)\s+(?:remote\s+)?(?:at|to)\b/gi, ' $& git remote url '],
  [/\b(?:second|another|extra|separate|additional|parallel)\s+working\s+(?:copy|copies|tree|directory)\b/gi, ' $& worktree '],
  [
    /\b(?:pull(?!\s+requests?\b)|get|grab|download|bring)\s+((?:[\w'-]{1,40}\s+){0,6}?)(?:without|but\s+(?:don'?t|do\s+not|not))\s+merg(?:e|ing)\b/gi,
    ' fetch download $1 ',
  ],
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
