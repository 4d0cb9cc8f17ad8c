/**
 * Phrases of a request read as what they mean (plugins/meta-tools/ranking/phrases.ts): idioms
 * whose words name other acts, what a request carries rather than asks (a message, a fact, a
 * name), and grammar that would count as words (doubt, a user story's role). Each pattern
 * reads caller input, so each is also flooded.
 */
import { expect } from 'chai';
import { resourceNames } from '../../plugins/meta-tools/ranking/phrases.js';
import { queryWords } from '../../plugins/meta-tools/ranking/words.js';
import { expectEachFloodWithin } from '../support/floods.js';
import { rankedNames, toolCorpus } from '../support/tool-corpus.js';

describe('filter_tools: phrases read as what they mean', () => {
  it('reads "keeps crashing" as crashing: "keep" before an -ing verb says the act repeats, nothing is kept', () => {
    expect(queryWords('the checkout pods keep crashing')).to.deep.equal(['pods', 'crashing']);
    expect(queryWords('a test kept failing in CI')).to.deep.equal(['test', 'failing', 'ci']);
    expect(queryWords('keep this message as a draft')).to.deep.equal(['keep', 'message', 'draft']);
    expect(queryWords('keep the string')).to.deep.equal(['keep', 'string']);
  });

  it('reads "get rid of" and "throw away" as deleting', () => {
    expect(queryWords('get rid of the newsletters')).to.deep.equal(['delete', 'newsletters']);
    expect(queryWords('throw away that spam message')).to.deep.equal(['delete', 'spam', 'message']);
    expect(queryWords('throw an error')).to.deep.equal(['throw', 'error']);
    expect(queryWords('clear out the test entries')).to.deep.equal(['delete', 'test', 'entries']);
    expect(queryWords('clear the cache')).to.deep.equal(['clear', 'cache']);
  });

  it('drops the asker\'s doubt: "no idea why", "not sure whether", "I wonder if"', () => {
    expect(queryWords('the pods crash and I have no idea why')).to.deep.equal(['pods', 'crash', 'why']);
    expect(queryWords("I'm not sure whether to pack a coat")).to.deep.equal(['whether', 'pack', 'coat']);
    expect(queryWords('I wonder if it will rain')).to.deep.equal(['rain']);
    expect(queryWords('reply no to the invite')).to.deep.equal(['reply', 'no', 'invite']);
  });

  it('drops the role of a user story: "As a data analyst, I need ..." asks nothing of data', () => {
    expect(queryWords('As a data analyst I need the columns of the customers table')).to.deep.equal(['need', 'columns', 'table']);
    expect(queryWords('Please, as a DevOps engineer, I must roll back')).to.deep.equal(['must', 'rollback', 'rollout', 'undo']);
    // Not at a sentence's start, or not before "I" or "we": the words stay.
    expect(queryWords('save it as a new file')).to.deep.equal(['save', 'new', 'file']);
    expect(queryWords('treat this as a draft and I will fix it')).to.deep.equal(['treat', 'draft', 'fix']);
  });

  it('drops the role the asker opens with: "I\'m a data scientist exploring ...", "We\'re a small agency, ..."', () => {
    expect(queryWords("I'm a data scientist exploring a MongoDB cluster")).to.deep.equal(['exploring', 'mongo', 'db', 'mongodb', 'cluster']);
    expect(queryWords("I'm a travel blogger and I need a place to stay")).to.not.include.members(['travel', 'blogger']);
    expect(queryWords("We're a small agency, list our clients")).to.deep.equal(['list', 'clients']);
    // Only a role ended by what follows it, at a sentence's start: "a bit confused about" stays.
    expect(queryWords("I'm a bit confused about the build")).to.include('build').and.include('confused');
    expect(queryWords('list what I am a member of')).to.include('member');
  });

  it('reads "check out" before a branch, tag, commit or version as git\'s checkout; otherwise it is a look', () => {
    expect(queryWords('check out a new branch for the fix')).to.deep.equal(['checkout', 'new', 'branch', 'fix']);
    expect(queryWords('check out the release tag')).to.deep.equal(['checkout', 'release', 'tag']);
    expect(queryWords('check out this cool website')).to.deep.equal(['check', 'out', 'cool', 'website']);
  });

  it('drops the message or the fact after "tell ... that", "remember that": what is said is not the task', () => {
    expect(queryWords('Remember that the staging DB password rotates every 30 days and that Priya owns it')).to.deep.equal(['remember']);
    expect(queryWords('dm the team lead that the build is green')).to.deep.equal(['send', 'direct', 'message', 'team', 'lead']);
    expect(queryWords('add a comment that it is fixed in 3.1.4 and move it to Done')).to.deep.equal(['add', 'comment', 'move', 'done']);
    // "that" as a determiner is no message: "that bug report" is the thing replied on.
    expect(queryWords('leave a reply on that bug report')).to.deep.equal(['leave', 'reply', 'bug', 'report']);
  });

  it('reads idioms as the words tools use: a back and forth is a thread, "how long does it take to get" a travel time, "my schedule" the calendar', () => {
    expect(queryWords('show me the whole back and forth with the landlord')).to.deep.equal(['show', 'conversation', 'thread', 'landlord']);
    expect(queryWords('how long does it take to get from the office to the airport')).to.include.members(['travel', 'time', 'distance']);
    expect(queryWords('what is on my schedule tomorrow')).to.deep.equal(['calendar', 'events', 'tomorrow']);
    // A verb is no idiom: scheduling a mail stays a schedule.
    expect(queryWords('schedule the mail for tomorrow')).to.deep.equal(['schedule', 'mail', 'tomorrow']);
  });

  it('drops the name of a running thing: "the checkout service" asks nothing of git\'s checkout', () => {
    expect(queryWords("what's the p95 latency of the checkout service")).to.deep.equal(['metrics', 'percentile', 'latency', 'latency', 'service']);
    expect(queryWords('The payments pods keep crashing')).to.deep.equal(['pods', 'crashing']);
    expect(queryWords('start the dev server')).to.deep.equal(['start', 'server']);
    // A capitalised name may be the technology asked about; a kind alone stays.
    expect(queryWords('set up error tracking in a Django app')).to.deep.equal(['set', 'up', 'error', 'tracking', 'django', 'app']);
    expect(queryWords('list the pods')).to.deep.equal(['list', 'pods']);
    // A stored thing's name before its kind: the log file is a file, the beta-search flag a flag.
    expect(queryWords('check how big the log file is')).to.deep.equal(['check', 'big', 'file']);
    expect(queryWords('Turn off the new-onboarding flag for everyone')).to.deep.equal(['turn', 'off', 'flag', 'everyone']);
    expect(queryWords('query the sales table')).to.deep.equal(['query', 'sql', 'select', 'table']);
    // An adjective is no name: a new folder is made.
    expect(queryWords('make a new folder')).to.deep.equal(['make', 'new', 'folder']);
  });

  it('gives a name back when it is a server\'s whole name: "the weather service" names the service, "the dev server" not shopify-dev', () => {
    expect(resourceNames('is the weather service up, and the dev server?')).to.deep.equal(['weather', 'dev']);
    const c = toolCorpus([
      ['x_weather_check_service_status', 'Check the status of the service.', 'weather'],
      ['x_k8s_list_api_resources', 'List the API resources of the service.', 'k8s'],
      ['x_shopify-dev_validate', 'Validate a theme.', 'shopify-dev'],
      ['x_desk_start_process', 'Start a process on this machine.', 'desk'],
    ]);
    const names = rankedNames(c);
    expect(names('is the weather service API up?')[0]).to.equal('x_weather_check_service_status');
    expect(names('start the dev server')).to.not.include('x_shopify-dev_validate');
  });

  it('reads "push the task to Friday" as putting it off, not pushing code', () => {
    expect(queryWords('push the report task to friday')).to.deep.equal(['reschedule', 'report', 'task', 'friday']);
    expect(queryWords('move my dentist appointment to next week')).to.deep.equal(['reschedule', 'dentist', 'appointment', 'next', 'week']);
    expect(queryWords('push the branch to origin')).to.deep.equal(['push', 'branch', 'origin']);
    expect(queryWords('push every meeting I have tomorrow afternoon back by thirty minutes')).to.include('reschedule').and.not.include('push');
    expect(queryWords('push the commits back to the fork')).to.include('push');
    expect(queryWords('move the file to the archive folder')).to.deep.equal(['move', 'file', 'folder']);
  });

  it('reads "slip my mind" as a reminder, "block off Friday afternoon" as a calendar event, "month by month" as a trend', () => {
    expect(queryWords("renewing my passport shouldn't slip my mind")).to.deep.equal(['renewing', 'passport', 'remind', 'reminder']);
    expect(queryWords('block off Friday afternoon for focus time')).to.include.members(['calendar', 'event']);
    expect(queryWords('My Friday afternoon needs to be blocked for focus time')).to.include.members(['calendar', 'event']);
    expect(queryWords('how revenue grew month by month')).to.deep.equal(['revenue', 'grew', 'trend', 'over', 'time']);
    // A block of a page stays a block.
    expect(queryWords('update the block in the Notion page')).to.deep.equal(['update', 'block', 'notion', 'page']);
  });

  it('reads "three copies running" as replicas to scale', () => {
    expect(queryWords('the frontend should have three copies running')).to.deep.equal(['frontend', 'have', 'replicas', 'scale', 'running']);
    expect(queryWords('make a copy of the sheet')).to.deep.equal(['make', 'copy', 'sheet']);
  });

  it('reads "pull the captions from this video" as getting them; "pull the latest" and a pull request stay git\'s', () => {
    expect(queryWords('Pull the captions from this YouTube video')).to.deep.equal(['get', 'captions', 'tube', 'youtube', 'video']);
    expect(queryWords("pull last week's signups from the database")).to.deep.equal(['get', 'signups', 'database', 'query', 'sql']);
    expect(queryWords('stash my wip and pull the latest')).to.deep.equal(['stash', 'wip', 'pull', 'latest']);
    expect(queryWords('approve the pull request')).to.deep.equal(['approve', 'pull', 'request']);
  });

  it('reads a question about a set ("which flags are on", "are there any incidents") as a listing', () => {
    expect(queryWords('Which feature flags are turned on in production?')).to.deep.equal(['list', 'feature', 'flags', 'turned', 'production']);
    expect(queryWords('what tables are in the local sqlite file')).to.deep.equal(['list', 'tables', 'local', 'sqlite', 'file']);
    expect(queryWords('are there any open incidents right now')).to.deep.equal(['list', 'open', 'incidents', 'right', 'now']);
    expect(queryWords('which Pinecone indexes exist')).to.deep.equal(['list', 'pinecone', 'indexes', 'exist']);
    // One thing asked about is no set: "what time is it", "which branch is checked out".
    expect(queryWords('what time is it in Tokyo')).to.deep.equal(['time', 'tokyo']);
    expect(queryWords('which branch is checked out')).to.not.include('list');
  });

  it('reads "give me" as getting, "where to stay" as a rental listing', () => {
    expect(queryWords('give me the page as markdown')).to.deep.equal(['get', 'page', 'markdown']);
    expect(queryWords('I need to know where to stay in Lisbon')).to.include.members(['stay', 'listing', 'rental', 'lisbon']);
    // Staying is no lodging without a place to stay: "stay logged in" keeps its words.
    expect(queryWords('stay logged in')).to.not.include('listing');
  });

  it('reads a noun said as the verb ("email a summary to my manager", "index every page") as sending it or adding to an index', () => {
    expect(queryWords('list my events and email a summary of them to my manager')).to.deep.equal(['list', 'events', 'send', 'email', 'summary', 'manager']);
    expect(queryWords('post it in the #incidents Discord channel')).to.deep.equal(['send', 'post', 'channel', 'discord', 'channel']);
    expect(queryWords('Message the team, then archive the card')).to.include.members(['send', 'message', 'team']);
    expect(queryWords('crawl the site and index every page into the docs index')).to.include.members(['index', 'upsert', 'insert']);
    // A noun stays a noun: an email from someone, the index itself, a post read.
    expect(queryWords('the email from Bob about invoices')).to.not.include('send');
    expect(queryWords('describe the search index')).to.not.include('upsert');
    expect(queryWords('read the post about pricing')).to.not.include('send');
  });

  it('reads what is on my plate as tasks and events, a call with someone as a meeting, what somebody sent me as mail, what they recommended as something to recall', () => {
    expect(queryWords("what's on my plate tomorrow")).to.deep.equal(['tasks', 'calendar', 'events', 'tomorrow']);
    expect(queryWords('book a 30 minute call with Sam')).to.deep.equal(['book', 'meeting', 'event', 'sam']);
    // A call logged in a CRM is a call.
    expect(queryWords('log a call with the Acme contact')).to.include('call');
    expect(queryWords('summarize the PDF my accountant sent me')).to.deep.equal(['summarize', 'pdf', 'accountant', 'email', 'received']);
    expect(queryWords('what was the name of the restaurant Tom recommended?')).to.include('recall').and.not.include('tom');
    expect(queryWords('remind yourself that I am vegetarian')).to.include.members(['remember', 'memory']);
    expect(queryWords('keep in mind that I am vegetarian')).to.include('remember');
    // Only after a name: "the restaurant recommended by the guide" recalls nothing.
    expect(queryWords('the restaurant recommended by the guide')).to.not.include('recall');
  });

  it('reads a question about the world as one for facts from the web; a history that is no proper name stays a history', () => {
    for (const q of [
      'who won the world cup in 2018',
      "what's the population of Japan",
      'who is the CEO of Nvidia',
      'tell me about the history of the Eiffel Tower',
      "what's the exchange rate between euro and yen",
    ])
      expect(queryWords(q), q).to.include.members(['facts', 'web', 'search']);
    expect(queryWords('show the history of this card')).to.include('history').and.not.include('web');
    expect(queryWords('who was Ada Lovelace')).to.include.members(['facts', 'web', 'search']);
    // A colleague by first name, or somebody in a channel, is no fact from the web.
    expect(queryWords('who is Priya')).to.not.include('web');
    expect(queryWords('dig deep into how batteries work')).to.include.members(['research', 'deep']);
    expect(queryWords('find open source projects about vector databases')).to.include.members(['repositories', 'search']);
    expect(queryWords('who changed this line')).to.not.include('web');
    // Who changed something is in an audit log as well as in git's blame.
    expect(queryWords('who last changed the pricing flag')).to.deep.equal(['who', 'changed', 'audit', 'flag']);
    expect(queryWords('check which feature flags changed this week')).to.include.members(['changed', 'audit']);
  });

  it("reads a programmer's how-to as a question for a library's documentation; a traveller's how-to stays a question of the way", () => {
    expect(queryWords('How do I configure retries in axios?')).to.deep.equal(['documentation', 'library', 'configure', 'retries', 'axios']);
    expect(queryWords('show me how to define a one-to-many relation')).to.include.members(['documentation', 'library']);
    expect(queryWords('how do I drive from Boston to New York')).to.not.include('documentation');
  });

  it('reads typing a value into a box as typing into a field: the value is what is typed, the box keeps its name', () => {
    expect(queryWords('type my email into the newsletter box')).to.deep.equal(['type', 'text', 'field', 'newsletter', 'box']);
    expect(queryWords('enter the code in the search bar')).to.include.members(['type', 'text', 'field']);
    expect(queryWords('type my email address')).to.include('email');
  });

  it('reads going to, opening, loading or visiting a page or a site as navigating; going to a place stays', () => {
    expect(queryWords('go to the login page and fill in my email')).to.include('navigate');
    expect(queryWords('head to https://example.com/pricing')).to.include('navigate');
    expect(queryWords('Load the signup page and list the failed calls')).to.include('navigate');
    expect(queryWords('visit our landing page')).to.include('navigate');
    expect(queryWords('go to the airport')).to.not.include('navigate');
    expect(queryWords('open the invoice pdf')).to.not.include('navigate');
  });

  it("reads a browser's ways of saying: the search box is a field to type into, mobile size a viewport, capturing as an image a screenshot", () => {
    expect(queryWords("search for 'rate limits' using the search box")).to.include.members(['type', 'text', 'field']);
    expect(queryWords('open the page at mobile size')).to.include.members(['resize', 'viewport']);
    expect(queryWords('capture the resulting table as an image')).to.include('screenshot');
    expect(queryWords('capture the requirements in a doc')).to.not.include('screenshot');
  });

  it("reads an operator's idioms: scaling to four pods, rolling back, spinning up, silencing a page, 500s", () => {
    expect(queryWords('bump the api to four pods')).to.include.members(['replicas', 'scale']);
    expect(queryWords("roll the payment service back to yesterday's build")).to.include.members(['rollback', 'rollout']);
    expect(queryWords('spin up the api locally')).to.include.members(['start', 'run']);
    expect(queryWords("we're getting paged every night for a disk alert, shut it up for a week")).to.include.members(['alert', 'monitor', 'mute', 'silence']);
    expect(queryWords('the homepage is throwing 500s')).to.include.members(['http', 'error']);
    expect(queryWords("what's listening on port 8080")).to.include.members(['process', 'list', 'port']);
    expect(queryWords('How much memory is Chrome using?')).to.include.members(['process', 'usage']);
    expect(queryWords('run the migration script and answer yes when it asks')).to.include.members(['interact', 'input', 'process']);
    expect(queryWords('keep an eye on the status page')).to.include.members(['monitor', 'watch']);
    expect(queryWords('once the crawl finishes, send me the results')).to.include.members(['status', 'check']);
    expect(queryWords('before you merge, make sure the checks are green')).to.include.members(['checks', 'status', 'pass']);
    expect(queryWords('make sure nobody is double-booked for the review')).to.include.members(['freebusy', 'busy']);
    expect(queryWords("what's taking up all the room in my Downloads folder")).to.include.members(['size', 'disk', 'usage', 'folder']);
    expect(queryWords('Check my Gmail for anything from the bank')).to.include('search');
    // A forecast checked for a place is no search.
    expect(queryWords('check the weather forecast for Denver')).to.not.include('search');
    expect(queryWords('find all TODO comments in src')).to.deep.equal(['find', 'code', 'text', 'search', 'src']);
    // A to-do is no code marker: "add a todo" keeps its word.
    expect(queryWords('add a todo for the comments')).to.include('todo');
    // Not a count of pods to scale to, nor a roll that comes back, nor a year.
    expect(queryWords('list the four pods')).to.not.include('scale');
    expect(queryWords('in the 1990s')).to.not.include('http');
  });

  it('reads "let the on-call know the database is back" as a message to send, its text no part of the task; "let me know" is no message', () => {
    expect(queryWords('let the on-call know the database is back')).to.deep.equal(['send', 'message', 'call']);
    expect(queryWords('let the team know that we shipped and close the ticket')).to.deep.equal(['send', 'message', 'team', 'close', 'ticket']);
    expect(queryWords('let me know when the build passes')).to.not.include('send');
  });

  it("reads a meeting by its kind (a 1:1, a standup), a call logged as a CRM's engagement, which of my calendars as a listing", () => {
    expect(queryWords('set up a weekly 1:1 with Dana every Thursday')).to.include.members(['meeting', 'event']);
    expect(queryWords('log the call I just had with the CFO')).to.include.members(['crm', 'engagement', 'create']);
    expect(queryWords('show the log of the build')).to.not.include('engagement');
    expect(queryWords('which of my calendars is the shared one')).to.include('list');
  });

  it("reads a programmer's places and undoing: where a thing is defined, across the project, discarding changes", () => {
    expect(queryWords('open the file where the User model is defined')).to.include.members(['code', 'search', 'definition']);
    expect(queryWords('rename getUser to fetchUser across the project')).to.include.members(['code', 'search', 'files']);
    expect(queryWords('throw away the changes I made to config.yaml')).to.include.members(['discard', 'changes', 'checkout', 'restore']);
    // Throwing away a thing still deletes it.
    expect(queryWords('throw away that spam message')).to.include('delete');
  });

  it('reads inviting somebody to an event as adding an attendee, and adding to the end of a page as appending to it', () => {
    expect(queryWords("invite Priya to Thursday's design review")).to.include.members(['attendee', 'event', 'update']);
    expect(queryWords('invite to the party')).to.not.include('attendee');
    expect(queryWords('add a line to the end of my reading list page')).to.include.members(['append', 'block', 'children']);
  });

  it('reads a count "per day" or a sum "by region" as an aggregate over grouped rows', () => {
    expect(queryWords('how many orders did we get per day last week')).to.include.members(['aggregate', 'group', 'count']);
    expect(queryWords('what time is it')).to.not.include('aggregate');
  });

  it('reads a planner\'s and a non-native speaker\'s phrasings: files that contain something are searched, "how many" counts, "up or not" is a request', () => {
    expect(queryWords('Locate all configuration files containing the deprecated key')).to.include.members(['search', 'content']);
    expect(queryWords('every unread message from this week that mentions a refund')).to.include.members(['message', 'search', 'content']);
    expect(queryWords('where is file with database password in project')).to.include.members(['find', 'search', 'files']);
    expect(queryWords('how many documents are in the orders collection')).to.include('count').and.not.include('many');
    expect(queryWords('add a row for the new vendor to the Vendors table')).to.include.members(['create', 'insert', 'record']);
    expect(queryWords('add to my todo buy milk and eggs')).to.include.members(['create', 'task']);
    expect(queryWords('check if website example.com is up or not')).to.include.members(['fetch', 'request']);
    expect(queryWords('Enumerate every repository the authenticated user can access')).to.deep.equal(['enumerate', 'repository']);
    expect(queryWords('Reconcile the totals and flag discrepancies')).to.not.include('flag');
    // A column called to-do on a board is no task list; appending a row to a sheet is writing it; a flag stays a flag.
    expect(queryWords('add a card for the bug to my to-do column on the board')).to.not.include('create');
    expect(queryWords('append a row to the Sales sheet')).to.not.include('record');
    expect(queryWords('flag the dark-mode feature for beta users')).to.include('flag');
  });

  it("reads a traveller's and an assistant's phrasings: the time somewhere when it is nine elsewhere, an outlook for days, a house that sleeps eight, a trip blocked on the calendar", () => {
    expect(queryWords('what time it will be in Tokyo when it is 9am in Berlin')).to.include.members(['convert', 'zone']);
    expect(queryWords('the multi-day outlook for the destination city')).to.include('forecast').and.not.include('outlook');
    expect(queryWords('send it through Outlook')).to.not.include('forecast');
    expect(queryWords('find a house that sleeps eight near the beach')).to.include.members(['stay', 'rental']);
    expect(queryWords('I want the trip blocked on my calendar')).to.include.members(['create', 'calendar', 'event']);
    expect(queryWords('how long the drive from the airport takes')).to.include.members(['travel', 'distance']);
    expect(queryWords('tell everyone in the #offsite channel what you picked')).to.include.members(['send', 'message']);
  });

  it("reads a reporter's and an operator's phrasings: logging a bug for a team opens an issue (the team is nobody to create), real users and load times are page performance, local changes the tree's status", () => {
    expect(queryWords('log it for the web team')).to.include.members(['create', 'issue']).and.not.include('team');
    expect(queryWords('open a ticket for the team with what you found')).to.not.include('team');
    expect(queryWords('create a team for the mobile developers')).to.include('team');
    expect(queryWords('how our sign-up page performs for real users: its load times')).to.include.members(['rum', 'performance']);
    expect(queryWords("see what's modified locally")).to.include.members(['status', 'diff']);
    expect(queryWords('a screenshot of the google homepage')).to.include.members(['screenshot', 'navigate']);
    expect(queryWords('The product team keeps asking which features users complain about')).to.not.include('team');
    expect(queryWords('create the backend team in Sentry')).to.include('team');
    expect(queryWords('look at the recent changes to the worker code')).to.include.members(['log', 'commits']);
    expect(queryWords('write up what you suspect in the incident channel')).to.include.members(['post', 'message']);
    expect(queryWords('check how much memory its pods are using')).to.include.members(['process', 'usage']);
    expect(queryWords("pick 'Express' from the shipping dropdown")).to.include.members(['select', 'option']).and.not.include('drop');
    expect(queryWords('are there any JavaScript errors printed on this page')).to.include.members(['console', 'messages']);
  });

  it("reads an analyst's and a salesperson's phrasings: which columns a table has is its schema, speeding up lookups an index, a call I had a CRM's engagement, a deal moved to Closed Won an update", () => {
    expect(queryWords('What columns does the orders table have')).to.include.members(['schema', 'fields']);
    // A board's columns are its lists, no schema.
    expect(queryWords('which columns does the sprint board have')).to.not.include('schema');
    expect(queryWords('Speed up lookups on the email field of the users collection')).to.include.members(['create', 'index']);
    expect(queryWords("Set the status of every order older than 90 days to 'archived'")).to.include.members(['update', 'many']);
    expect(queryWords("Write down that I had a call with Globex's CTO today about pricing"))
      .to.include.members(['crm', 'engagement'])
      .and.not.include('meeting');
    expect(queryWords('a 30 minute call with Sam on Friday')).to.include('meeting');
    expect(queryWords('Move the Acme renewal deal to Closed Won')).to.include.members(['update', 'deal', 'stage']).and.not.include('move');
    expect(queryWords('check how much space each collection takes')).to.include.members(['size', 'disk']);
    expect(queryWords('check that the workflow is valid')).to.include('validate');
  });

  it("reads a conference talk, and what its speaker said, as a video's transcript", () => {
    expect(queryWords('I watched a conference talk on event sourcing')).to.include.members(['video', 'transcript']);
    expect(queryWords('get what the speaker said about retries')).to.include('transcript');
    expect(queryWords('talk to the landlord about the lease')).to.not.include('transcript');
  });

  it('reads what I wrote somewhere, what is in it about something, and whether a file exists, as searches; the team somebody is on as nobody to create', () => {
    expect(queryWords('What did I write in my Notion page about the hiring plan?')).to.include.members(['search', 'notion', 'page']).and.not.include('write');
    expect(queryWords("what's in my Notion workspace about hiring")).to.include.members(['search', 'notion', 'workspace', 'hiring']);
    expect(queryWords('Does a file called .env exist in this project?')).to.include.members(['file', 'search', 'info']);
    expect(queryWords('Who on the team has the most open tickets')).to.not.include('team');
  });

  it('reads the price of something named as a fact from the web, and a cited answer as research; a price to set stays a price', () => {
    expect(queryWords('What is the current price of Bitcoin in euros?')).to.include.members(['facts', 'web', 'search']);
    expect(queryWords('update the price of SKU-1234 to 19.99')).to.not.include('facts');
    expect(queryWords('I need a thorough, cited report on solid-state batteries')).to.include.members(['research', 'citations']);
  });

  it("reads an operator's: kicking off a build starts it, reaching a database as if it were local forwards a port, why a pod won't start describes it", () => {
    expect(queryWords('Kick off a fresh build of the main branch')).to.include.members(['start', 'run', 'trigger']).and.not.include('kick');
    expect(queryWords('poke at the database from my laptop as if it were local')).to.include.members(['port', 'forward']);
    expect(queryWords("Why won't the worker pod start?")).to.include.members(['pod', 'describe', 'status']);
  });

  it("reads a correspondent's: a reply someone got back to me with is mail to search, writing back replies, the same message forwards, a half-written one is a draft, one sent 'not now' scheduled", () => {
    expect(queryWords('Did the landlord ever get back to me about the broken heater?')).to.include.members(['email', 'search']).and.not.include('back');
    expect(queryWords("Write back to the recruiter saying I'm not interested")).to.include('reply');
    expect(queryWords('Send Jenny the same message I sent Tom yesterday')).to.include('forward');
    expect(queryWords('Save a half-written note to my accountant')).to.include('draft');
    expect(queryWords('Send the weekly update on Monday at 8am, not now')).to.include('schedule');
    expect(queryWords('Save the invoice PDF that came with the email from Acme')).to.include('attachment');
    expect(queryWords("Give Maya's message a thumbs up")).to.include('reaction');
    expect(queryWords('the job title of the new designer')).to.include.members(['user', 'profile']);
    expect(queryWords('When did I last change my resume file?')).to.include.members(['modified', 'info']);
  });

  it("reads a browser's keys and modes: hitting Enter presses a key, a page in dark mode is an emulated colour scheme; a flag called dark-mode stays a flag", () => {
    expect(queryWords("Type 'wireless earbuds' into the search bar and hit Enter")).to.include.members(['press', 'key']);
    expect(queryWords('Show me how the page looks in dark mode')).to.include.members(['emulate', 'media']);
    expect(queryWords('Create a feature flag called dark-mode')).to.not.include('emulate');
    expect(queryWords('turn the dark mode flag on for beta users')).to.not.include('emulate');
  });

  it('reads a summary dropped in #reading as a message posted there, and a visit put on my calendar as an event', () => {
    expect(queryWords('drop the summary in #reading')).to.include.members(['send', 'post', 'message']).and.not.include('drop');
    expect(queryWords('drop the old index')).to.include('drop');
    expect(queryWords('put a visit on my calendar for Thursday')).to.include.members(['create', 'calendar', 'event']);
  });

  it("reads a team lead's: putting Lena on a card assigns her, who else can see a project asks its collaborators, a crawl finished yet its status", () => {
    expect(queryWords("Put Lena on the 'Fix login' card so she owns it")).to.include.members(['assign', 'member']);
    expect(queryWords('put the card on the Done list')).to.not.include('assign');
    expect(queryWords('Who else can see my Home Renovation project?')).to.include.members(['collaborators', 'shared']);
    expect(queryWords('Is my crawl of the docs site finished yet?')).to.include('status');
  });

  it('reads finding thirty minutes for a sync-up as a question of free time, and pinging a channel as a message to it; pinging a server stays a ping', () => {
    expect(queryWords('Find 30 minutes for a sync-up with the design leads next week')).to.include.members(['freebusy', 'meeting']);
    expect(queryWords('Ping the #oncall channel that the failover is done')).to.include.members(['send', 'message']);
    expect(queryWords('ping the redis server')).to.include('ping').and.not.include('message');
  });

  it("reads pages pushed into a vector index as upserted records, names pulled out as extracted, someone's GitHub profile as something about them, rows added to a table as records", () => {
    expect(queryWords('push the fresh pages into the vector index')).to.include.members(['upsert', 'records']).and.not.include('push');
    expect(queryWords('push the branch to origin')).to.not.include('upsert');
    expect(queryWords('pull out names and links to their GitHub profiles')).to.include('extract').and.not.include.members(['git', 'github']);
    expect(queryWords('list the repos in my GitHub account')).to.include('github');
    expect(queryWords('add them to the Candidates table')).to.include.members(['insert', 'record']);
  });

  it('reads the pull requests we merged as a listing of them, a p95 as a metric, what I found logged on a card as a comment, a place within walking distance as nearby', () => {
    expect(queryWords('Gather the pull requests we merged')).to.include.members(['pull', 'requests', 'list']).and.not.include('merged');
    expect(queryWords('merge the pull request')).to.include('merge');
    expect(queryWords('the p95 latency of the search service')).to.include.members(['metrics', 'percentile']);
    expect(queryWords('log what you find on the deliverability card')).to.include.members(['add', 'comment', 'card']).and.not.include('log');
    expect(queryWords('suggest how to shrink it in a comment on the PR')).to.include.members(['add', 'comment']);
    expect(queryWords('Italian places within walking distance of the office')).to.include('nearby');
  });

  it('reads emails from somebody as a search of the mailbox, and "todo: buy stamps" as a task to create', () => {
    expect(queryWords('emails from boss today')).to.include.members(['emails', 'search']);
    expect(queryWords('todo: buy stamps')).to.include.members(['create', 'task']);
    expect(queryWords('list my todo items')).to.not.include('create');
  });

  it('reads a chart said by its shape as the chart that draws it: nested rectangles, boxes and arrows, nodes and links, states coloured by sales, a filling gauge', () => {
    expect(queryWords('our budget across departments as nested rectangles')).to.include('treemap');
    expect(queryWords('Lay out the approval process as boxes and arrows')).to.include.members(['flow', 'diagram']);
    expect(queryWords('how the services depend on each other as nodes and links')).to.include.members(['network', 'graph']);
    expect(queryWords('Color each state by its sales')).to.include.members(['district', 'map']);
    expect(queryWords("what share of the target we've reached as a filling gauge")).to.include.members(['percentage', 'completion']);
  });

  it('reads a page called something as one to search by title, what we decided as a search of notes, rows where a field is something as a filtered query', () => {
    expect(queryWords('Find the Notion page called Onboarding')).to.include.members(['page', 'search', 'title']);
    expect(queryWords('what did we decide in the planning meeting?')).to.include.members(['search', 'notes']);
    expect(queryWords('show the rows of the Roadmap database where status is In progress')).to.include.members(['query', 'filter']);
    expect(queryWords('where is the roadmap database')).to.not.include('filter');
  });

  it('reads what is left as what is incomplete, the next batch of matches as more results, what the team ought to hear as a message, who reports to whom as a relation', () => {
    expect(queryWords("list what's left in the sprint")).to.include.members(['remaining', 'incomplete']);
    expect(queryWords('show the next batch of matches from that search')).to.include.members(['more', 'results']);
    expect(queryWords('The whole team ought to hear that the outage is over')).to.include.members(['send', 'message']);
    // What I need to know is a question of mine, no message.
    expect(queryWords('I need to know the schema of the users table')).to.not.include('message');
    expect(queryWords('Bob no longer reports to Carol')).to.include('relation');
    expect(queryWords('show everything in the In Progress list')).to.include('cards');
    expect(queryWords('show how often each exam score occurs')).to.include('frequency');
  });

  it('reads whether a server is still running as a process status, running the tests as a terminal command (how to run them is no request), running this JavaScript as a snippet', () => {
    expect(queryWords('Is the dev server still running?')).to.include.members(['process', 'status']);
    expect(queryWords('run the unit tests and show me only the failures')).to.include.members(['process', 'command']);
    expect(queryWords('make the README explain how to run the tests')).to.not.include('command');
    expect(queryWords('run this JavaScript and tell me what it prints')).to.include.members(['code', 'snippet']);
  });

  it('reads what I have on file about somebody as a search of memory, writing down that something is so as an observation, what is connected to a project as its relations, what is no longer so as a fact to remove', () => {
    expect(queryWords('What do I have on file about the Henderson account?')).to.include.members(['search', 'memory']);
    expect(queryWords('Write down that the API key for staging expires on June 1')).to.include.members(['remember', 'observation']);
    expect(queryWords('Pull up everything connected to Project Atlas')).to.include.members(['nodes', 'relations']);
    expect(queryWords("Lena isn't on the platform team anymore")).to.include.members(['delete', 'remove']);
    expect(queryWords('Sam no longer works at Initech')).to.include('delete');
    expect(queryWords("the build isn't green")).to.not.include('delete');
  });

  it('reads what comes from the database as a query, and what comes from the shared mailbox as emails; a table in the database stays a table', () => {
    expect(queryWords("pull last quarter's revenue by month from the database")).to.include.members(['query', 'sql']);
    expect(queryWords('Ascertain the structure of the orders table in the SQLite database')).to.not.include('sql');
    expect(queryWords('Grab the last fifty support threads from the shared mailbox')).to.include.members(['emails', 'search']);
    expect(queryWords('Query the billing table')).to.include.members(['query', 'sql', 'select']);
    expect(queryWords('keep the key numbers in my knowledge graph')).to.include.members(['remember', 'observation']);
    expect(queryWords('clear the memory cache')).to.not.include('remember');
  });

  it('reads a yes-or-no question about the state of things as the tool that knows: a page that is already there, what I have told you, who wrote to me, business hours somewhere, anything on fire', () => {
    expect(queryWords('Is there already a Notion page for the offsite?')).to.include.members(['search', 'existing']);
    expect(queryWords('Have I told you where Sam works?')).to.include.members(['recall', 'memory']);
    expect(queryWords('Did anyone from Acme write to me this week?')).to.include.members(['email', 'received']);
    expect(queryWords('Is it still business hours in Singapore?')).to.include.members(['current', 'time']);
    expect(queryWords('get the opening hours of the cafe')).to.not.include('timezone');
    expect(queryWords('Is anything on fire in production right now?')).to.include('incidents');
  });

  it('reads 100,000 characters shaped like each phrase in linear time (each pattern starts only where its phrase can)', () => {
    const floods = [
      'keep '.repeat(20_000) + 'going',
      'keeps ' + 'a'.repeat(100_000) + 'ing',
      'get rid '.repeat(12_000) + 'of',
      'i have no '.repeat(10_000) + 'idea',
      "I'm not ".repeat(12_000) + 'sure',
      '. as a b c d e '.repeat(7_000) + 'I',
      ', as the ' + 'a-'.repeat(50_000),
      'check out '.repeat(10_000) + 'branch',
      'check out a.b.c '.repeat(6_000) + 'tag',
      'tell that it '.repeat(8_000),
      'remember a b c d that I ' + 'x '.repeat(50_000),
      'back and '.repeat(12_000) + 'forth',
      'how long does it take to '.repeat(4_000) + 'get',
      'my '.repeat(33_000) + 'schedule',
      'the '.repeat(25_000) + 'service',
      'the a' + '-'.repeat(100_000) + ' pod',
      'the new '.repeat(12_000) + 'folder',
      'push a b c d '.repeat(8_000) + 'to friday',
      'move '.repeat(20_000) + 'to tomorrow',
      'block off my the '.repeat(6_000) + 'time',
      'slip '.repeat(20_000) + 'my mind',
      'month by '.repeat(12_000) + 'month',
      '3 '.repeat(33_000) + 'copies',
      'pull '.repeat(20_000) + 'the',
      'which '.repeat(20_000) + 'flags are',
      'which a '.repeat(14_000) + 'bs do',
      'are there '.repeat(10_000) + 'any',
      'give '.repeat(20_000) + 'me',
      'where to '.repeat(12_000) + 'stay',
      'and email '.repeat(10_000) + 'the',
      ', post, index '.repeat(7_000) + 'every',
      'on my '.repeat(16_000) + 'plate',
      'a 30 minute quick '.repeat(5_000) + 'call with',
      'log a '.repeat(16_000) + 'call with',
      'sent '.repeat(20_000) + 'me',
      'Tom '.repeat(25_000) + 'recommended',
      'T' + 'a'.repeat(100_000) + ' told me about',
      'who '.repeat(25_000) + 'won',
      'who last '.repeat(12_000) + 'changed',
      'which a b '.repeat(11_000) + 'changed',
      'how do I '.repeat(11_000) + 'configure',
      'go to the a '.repeat(9_000) + 'page',
      'type my a b into the '.repeat(5_000) + 'box',
      'type '.repeat(20_000) + 'into the box',
      'open the a '.repeat(9_000) + 'page',
      'using the search '.repeat(6_000) + 'box',
      'at mobile '.repeat(10_000) + 'size',
      'capture the a b c '.repeat(5_000) + 'image',
      'clear '.repeat(20_000) + 'out',
      'to 3 '.repeat(25_000) + 'pods',
      'roll a b '.repeat(11_000) + 'back',
      'spin '.repeat(20_000) + 'up',
      'shut it '.repeat(12_000) + 'up',
      'getting '.repeat(12_000) + 'paged',
      '500'.repeat(33_000) + 's',
      'is a '.repeat(20_000) + 'listening on',
      'TODO '.repeat(20_000) + 'comments',
      'remind '.repeat(16_000) + 'yourself',
      '1:1'.repeat(33_000),
      'how much memory is a '.repeat(5_000) + 'using',
      'taking up all the '.repeat(6_000) + 'room',
      'check my '.repeat(12_000) + 'inbox for',
      'log the '.repeat(12_000) + 'call',
      'which of my '.repeat(9_000) + 'calendars',
      'invite Ab Cd '.repeat(8_000) + 'to',
      'per '.repeat(25_000) + 'day',
      'answer yes '.repeat(10_000) + 'when it asks',
      'who was Ab '.repeat(10_000) + 'Cd',
      'dig '.repeat(25_000) + 'into',
      'keep an '.repeat(12_000) + 'eye on',
      'once the a '.repeat(9_000) + 'finishes',
      'checks are '.repeat(9_000) + 'green',
      'double '.repeat(16_000) + 'booked',
      'what should I '.repeat(7_000) + 'pack',
      'to the end of my a b '.repeat(5_000) + 'page',
      'where a b c d '.repeat(7_000) + 'is defined',
      'across the whole '.repeat(6_000) + 'project',
      'discard the local '.repeat(6_000) + 'changes',
      'open source '.repeat(9_000) + 'projects',
      'let the a b '.repeat(8_000) + 'know',
      'let a know ' + 'x '.repeat(50_000),
      'how to how '.repeat(10_000) + 'to use',
      "I'm a ".repeat(16_000) + 'developer',
      '. we are an a b c '.repeat(5_000) + 'x',
      'history of the '.repeat(6_000) + 'Eiffel',
      'exchange '.repeat(11_000) + 'rate',
      'files a b c d '.repeat(7_000) + 'that contain',
      'messages '.repeat(11_000) + 'mentioning',
      'where is the '.repeat(8_000) + 'file',
      'how '.repeat(25_000) + 'many',
      'add a new '.repeat(10_000) + 'row',
      'add a b c d e f '.repeat(6_000) + 'to my todo list',
      'up or '.repeat(16_000) + 'not',
      'the current user can '.repeat(5_000) + 'access',
      'flag any '.repeat(11_000) + 'discrepancies',
      'when it is '.repeat(9_000) + 'noon in',
      'multi-day '.repeat(10_000) + 'outlook',
      'sleeps '.repeat(14_000) + 'eight',
      'blocked on '.repeat(9_000) + 'my calendar',
      'how long the '.repeat(8_000) + 'drive',
      'tell '.repeat(25_000) + 'everyone',
      'log it '.repeat(14_000) + 'for',
      'for the a '.repeat(10_000) + 'team',
      'real '.repeat(20_000) + 'users',
      'page load '.repeat(10_000) + 'times',
      'modified '.repeat(11_000) + 'locally',
      'screenshot of the a b c '.repeat(4_000) + 'page',
      'create the a '.repeat(8_000) + 'team',
      'the a '.repeat(16_000) + 'team',
      'recent changes to the a b '.repeat(4_000) + 'code',
      'write it up a b c d in the '.repeat(4_000) + 'channel',
      'how much memory a b c '.repeat(5_000) + 'using',
      'push a b c d e f g h '.repeat(4_000) + 'back by thirty minutes',
      'push back '.repeat(10_000) + 'by',
      'dial-in '.repeat(12_000) + 'link',
      'drop '.repeat(20_000) + 'down',
      'javascript '.repeat(9_000) + 'errors',
      'what columns does a b c '.repeat(4_000) + 'table',
      'speed up '.repeat(12_000) + 'lookups',
      'set the a of '.repeat(8_000) + 'every',
      'I had a a b '.repeat(8_000) + 'call with',
      'closed '.repeat(16_000) + 'won',
      'move the a b c '.repeat(6_000) + 'deal to',
      'how much disk '.repeat(8_000) + 'space',
      'is still '.repeat(12_000) + 'valid',
      'conference '.repeat(10_000) + 'talk',
      'what the speaker '.repeat(6_000) + 'said',
      'what did I '.repeat(9_000) + 'write',
      "what's in my a b ".repeat(6_000) + 'about',
      'file called a.b '.repeat(6_000) + 'exists',
      'files '.repeat(16_000) + 'exist',
      'price of the '.repeat(8_000) + 'Bitcoin',
      'with '.repeat(20_000) + 'citations',
      'kick '.repeat(20_000) + 'off',
      'as if it were '.repeat(7_000) + 'local',
      "why won't the a b ".repeat(5_000) + 'pod start',
      'ever get back '.repeat(7_000) + 'to me',
      'write back '.repeat(10_000) + 'to',
      'the same message I '.repeat(5_000) + 'sent',
      'half '.repeat(20_000) + 'written',
      'not right '.repeat(10_000) + 'now',
      'came with the '.repeat(7_000) + 'email',
      'thumbs '.repeat(14_000) + 'up',
      'job '.repeat(25_000) + 'title',
      'when did I last '.repeat(6_000) + 'change',
      'hit the '.repeat(12_000) + 'enter key',
      'in the dark '.repeat(8_000) + 'mode',
      'drop it a b c d in #'.repeat(5_000),
      'put a b c '.repeat(8_000) + 'on my calendar',
      'put Ab '.repeat(14_000) + 'on the',
      'who else can '.repeat(8_000) + 'see',
      'finished '.repeat(11_000) + 'yet',
      'find 30 '.repeat(12_000) + 'minutes for',
      'ping the '.repeat(11_000) + 'channel',
      'sync '.repeat(20_000) + 'up',
      'push a b c d '.repeat(6_000) + 'into the vector index',
      'pull '.repeat(20_000) + 'out',
      'their Ab '.repeat(12_000) + 'profiles',
      'add them to the a '.repeat(6_000) + 'table',
      'requests we '.repeat(10_000) + 'merged',
      'p95 '.repeat(25_000),
      'log what you find on the '.repeat(4_000) + 'card',
      'in a comment on the '.repeat(5_000) + 'PR',
      'within walking '.repeat(7_000) + 'distance of',
      'emails '.repeat(16_000) + 'from',
      ' '.repeat(100_000) + 'todo:',
      'nested '.repeat(16_000) + 'rectangles',
      'boxes and '.repeat(11_000) + 'arrows',
      'nodes and '.repeat(11_000) + 'links',
      'colour each '.repeat(8_000) + 'state by',
      'share of the '.repeat(8_000) + 'target',
      'page '.repeat(20_000) + 'titled',
      'what did we '.repeat(9_000) + 'decide',
      'rows a b c d e where '.repeat(5_000) + 'status is',
      "what's still ".repeat(9_000) + 'left',
      'next batch '.repeat(10_000) + 'of',
      'ought to '.repeat(11_000) + 'hear',
      'reports '.repeat(14_000) + 'to',
      'in the Ab Cd '.repeat(8_000) + 'list',
      'how '.repeat(25_000) + 'often',
      'still '.repeat(16_000) + 'running',
      'how to run the unit '.repeat(5_000) + 'tests',
      'run this quick '.repeat(7_000) + 'python',
      'what do I have on file '.repeat(4_000) + 'about',
      'write down '.repeat(10_000) + 'that',
      'everything connected '.repeat(5_000) + 'to',
      "isn't a ".repeat(12_000) + 'anymore',
      'no longer '.repeat(10_000) + 'works',
      'from the a '.repeat(10_000) + 'database',
      'from the shared '.repeat(7_000) + 'inbox',
      'query the a '.repeat(8_000) + 'table',
      'keep a b c d e in '.repeat(5_000) + 'my memory',
      'is there already a a b '.repeat(5_000) + 'page for',
      'have I ever '.repeat(8_000) + 'told you',
      'wrote '.repeat(16_000) + 'to me',
      'business '.repeat(11_000) + 'hours',
      'on '.repeat(33_000) + 'fire',
    ];
    expectEachFloodWithin(floods, 2_000, queryWords);
  });
});
