import { expect } from 'chai';
import { Catalogue } from '../../kernel/catalogue.js';
import { createHooks } from '../../kernel/hooks.js';
import { createLogger } from '../../kernel/log.js';
import type { ToolKind } from '../../kernel/tools.js';
import { buildIndex, rank } from '../../plugins/meta-tools/ranking.js';
import { queryWords } from '../../plugins/meta-tools/ranking/words.js';
import { expectEachFloodWithin } from '../support/floods.js';

type Tool = [name: string, description: string, server?: string, kind?: ToolKind];

function index(tools: Tool[]) {
  const c = new Catalogue(createHooks(), createLogger({ level: 'error' }));
  c.replaceSource(
    'corpus',
    tools.map(([name, description, server, kind]) => ({
      name,
      kind: kind ?? ('tool' as const),
      ...(kind === 'core' ? {} : { server: server ?? name.split('_')[1] }),
      description,
      inputSchema: { type: 'object' },
      invoke: async () => ({ content: [] }),
    })),
  );
  const idx = buildIndex(c.all(), c.version);
  return (query: string, only: (name: string) => boolean = () => true) =>
    rank(
      idx,
      query,
      c.all().filter((e) => only(e.name)),
    ).map((s) => s.entry.name);
}

describe('lexical ranking understands words: intent, WordNet relatives, server names, standing', () => {
  const names = index([
    ['x_fs_create_directory', 'Create a new directory.', 'fs'],
    ['x_fs_remove_entry', 'Erase an entry from the disk.', 'fs'],
    ['x_kg_add_observations', 'Add new observations to existing entities in the knowledge graph.', 'memory'],
    ['x_kg_delete_observations', 'Delete observations from entities in the knowledge graph.', 'memory'],
    ['x_mail_save_draft', 'Save an email draft to the Drafts folder.', 'mail'],
    ['x_fs_read_file', 'Read a file as text. DEPRECATED: Use read_text_file instead.', 'fs'],
    ['x_fs_read_text_file', 'Read the complete contents of a file as text.', 'fs'],
    ['x_cal_list_events', 'List events.', 'calendar'],
    ['core_config_save', 'Write the aggregator settings in force to config.yaml.', undefined, 'core'],
    ['core_mcpserver_create', 'Register a new MCP server.', undefined, 'core'],
  ]);

  it('finds a tool through the intent table: "folder" is a directory, "remember" is memory and observations', () => {
    expect(names('make a new folder')[0]).to.equal('x_fs_create_directory');
    expect(names('remember this about Ann')[0]).to.equal('x_kg_add_observations');
  });

  it('finds a tool through WordNet relatives, below a tool with the exact word', () => {
    // "wipe" is nowhere in the catalogue; WordNet relates it to "erase".
    expect(names('wipe the entry')[0]).to.equal('x_fs_remove_entry');
  });

  it('finds a short form through its long form and back: "configuration" is a config, "db" a database', () => {
    // "save" is a common word here and "configuration" a rare one: without the short form,
    // the tool whose prose says "configuration" outranks the one named config_save.
    const short = index([
      ['x_app_config_save', 'Write the settings in force to disk.', 'app'],
      ['x_app_config_get', 'The whole configuration in force, unsaved changes included.', 'app'],
      ['x_web_save_pdf', 'Save the page as a PDF.', 'web'],
      ['x_web_save_image', 'Save an image of the page.', 'web'],
      ['x_mail_save_draft', 'Save a draft.', 'mail'],
      ['x_notes_save_note', 'Save a note.', 'notes'],
      ['x_store_query', 'Run SQL against the database and return rows.', 'store'],
      ['x_store_db_tables', 'The tables of the db.', 'store'],
    ]);
    expect(short('save the configuration')[0]).to.equal('x_app_config_save');
    expect(short('which tables does the database have')[0]).to.equal('x_store_db_tables');
  });

  it("searches the tool's server name as a field of its own", () => {
    // "calendar" is only the server's name; the tool's own words say "events".
    expect(names('calendar')).to.deep.equal(['x_cal_list_events']);
  });

  it('ranks a tool that destroys below one that keeps, unless the request says to destroy', () => {
    const r = names('note an observation');
    expect(r.indexOf('x_kg_add_observations')).to.be.below(r.indexOf('x_kg_delete_observations'));
    expect(names('delete an observation')[0]).to.equal('x_kg_delete_observations');
  });

  it('ranks a deprecated tool below the replacement its description names', () => {
    const r = names('read file');
    expect(r.slice(0, 2)).to.deep.equal(['x_fs_read_text_file', 'x_fs_read_file']);
  });

  it('keeps core tools out unless the query asks about Switchboard, or only core tools are candidates', () => {
    expect(names('save for later')).to.not.include('core_config_save');
    expect(names('register an mcp server')[0]).to.equal('core_mcpserver_create');
    // A candidate list of core tools only (a core_* pattern, a kind filter) asks for them.
    expect(names('save for later', (n) => n.startsWith('core_'))[0]).to.equal('core_config_save');
  });

  it('reads a file name in a request as a file of its type; a host name is no file (it names a site: ranking-values.test.ts)', () => {
    expect(queryWords('what is in my notes.txt')).to.deep.equal(['file', 'txt']);
    expect(queryWords('open example.com')).to.deep.equal(['navigate', 'url', 'example']);
    // Files every project has, without an extension.
    expect(queryWords('open the README')).to.deep.equal(['open', 'file', 'readme']);
    expect(queryWords('what does the Makefile build')).to.deep.equal(['file', 'makefile', 'build']);
    expect(queryWords('the readmes of both repos')).to.deep.equal(['readmes', 'both', 'repos']);
    // An e-mail address is a value (ranking-values.test.ts), not a file name.
    expect(queryWords('mail jane@acme.com')).to.deep.equal(['mail', 'email', 'address']);
  });

  it('reads a JavaScript library named with ".js" as a library, not a file: "Next.js", "Node.js"; "app.js" stays a file', () => {
    expect(queryWords('what props does the Next.js Image component take')).to.deep.equal([
      'props',
      'nextjs',
      'javascript',
      'library',
      'image',
      'component',
      'take',
    ]);
    expect(queryWords('the latest Node.js release')).to.include.members(['nodejs', 'library']).and.not.include('node');
    expect(queryWords('open app.js')).to.deep.equal(['open', 'file', 'js']);
    expect(queryWords('open src/next.js')).to.include('file').and.not.include('library');
  });

  it("reads a file name's extension as the type it abbreviates: .md is Markdown, .xlsx a spreadsheet, .jpg an image", () => {
    const files = index([
      ['x_notes_read_markdown', 'Read a Markdown document and return its text.', 'notes'],
      ['x_office_read_sheet', 'Read the cells of one sheet of an Excel workbook.', 'office'],
      ['x_disk_read_image', 'Read an image from disk and return it as base64.', 'disk'],
      ['x_disk_read_text', 'Read a text file from disk.', 'disk'],
      // As in a real catalogue, "file" is a common word.
      ['x_disk_write_file', 'Write a file to disk.', 'disk'],
      ['x_disk_move_file', 'Move or rename a file.', 'disk'],
      ['x_disk_file_info', 'The size and times of a file.', 'disk'],
      ['x_disk_search_files', 'Find files whose names match a pattern.', 'disk'],
    ]);
    expect(files('open notes.md')[0]).to.equal('x_notes_read_markdown');
    expect(files('open budget.xlsx')[0]).to.equal('x_office_read_sheet');
    expect(files('open holiday.jpg')[0]).to.equal('x_disk_read_image');
  });

  it('reads "#name" as a chat channel, not as the words of its name; a "#" inside a word or before a number is left alone', () => {
    expect(queryWords('what has been said in #general today')).to.deep.equal(['has', 'been', 'said', 'channel', 'today']);
    expect(queryWords('#support: any news')).to.deep.equal(['channel', 'news']);
    expect(queryWords('close issue #42')).to.deep.equal(['close', 'issue', '42']);
    expect(queryWords('tune the c# build')).to.deep.equal(['tune', 'c', 'build']);
  });

  it('reads a standard folder by name as a folder, not as the act its name is', () => {
    expect(queryWords('what files are in my downloads folder')).to.deep.equal(['list', 'files', 'folder']);
    expect(queryWords('clean up Downloads')).to.deep.equal(['clean', 'up', 'folder']);
    expect(queryWords('list the Desktop directory')).to.deep.equal(['list', 'folder']);
    // Without folder or directory these are things, not places.
    expect(queryWords('take a picture of my desktop')).to.deep.equal(['take', 'picture', 'desktop']);
    expect(queryWords('download the report')).to.deep.equal(['download', 'report']);
  });

  it('rewrites adversarial queries of 100,000 characters without backtracking (a catastrophic pattern would take minutes)', () => {
    const worst = [
      ' '.repeat(100_000) + 'log in',
      ('the' + ' '.repeat(50)).repeat(2_000) + 'log in',
      '#a'.repeat(50_000),
      'log in '.repeat(15_000),
      'downloads '.repeat(10_000),
      '/'.repeat(100_000) + 'a',
      '/a'.repeat(50_000),
      ' /.'.repeat(33_000) + '/',
      'if you do not '.repeat(7_000) + 'mind',
      'next.js'.repeat(14_000),
      'node.'.repeat(20_000) + 'js',
      'Next.js '.repeat(12_000),
      'called ' + 'a'.repeat(100_000),
      'called '.repeat(14_000),
      'open a new '.repeat(9_000) + 'issue',
      "titled '" + 'a'.repeat(100_000),
      'a'.repeat(100_000) + "n't",
      "n't ".repeat(25_000),
      // A run of name characters without a dot, and long runs of white space: both were
      // quadratic (5 s for 100,000 letters) until the file-name pattern started only at a
      // run's start and white space was made single.
      'a'.repeat(100_000),
      'a-'.repeat(50_000),
      ' '.repeat(100_000) + 'x',
      '\t \n'.repeat(33_000) + 'notes.txt',
      '.a'.repeat(50_000),
      ' .env'.repeat(20_000),
    ];
    // Measured at 1-15 ms each; a bound a busy machine cannot reach, that a quadratic pattern cannot meet.
    expectEachFloodWithin(worst, 2_000, queryWords);
  });

  it('reads a path as the word "path", or as a file of its type when it ends in a file name; a URL is a URL, owner/repo and and/or are left alone', () => {
    expect(queryWords('list the files in /var/log')).to.deep.equal(['list', 'files', 'path']);
    expect(queryWords('delete ./build/cache/')).to.deep.equal(['delete', 'path']);
    expect(queryWords('what is in ~/.bashrc')).to.deep.equal(['file']);
    expect(queryWords('show me "/etc/nginx/nginx.conf"')).to.deep.equal(['show', 'file', 'conf']);
    expect(queryWords('unpack ../dist/site.tar.gz')).to.deep.equal(['unpack', 'file', 'gz']);
    // A log file is text to read, not a request for a log tool.
    expect(queryWords('read /var/log/app/error.log')).to.deep.equal(['read', 'file', 'text']);
    expect(queryWords('tail server.log')).to.deep.equal(['tail', 'file', 'text']);
    // A dotfile named alone is a file; ".log files" keep their type.
    expect(queryWords('open the .npmrc')).to.deep.equal(['open', 'file']);
    expect(queryWords('does .env exist')).to.not.include('env');
    expect(queryWords('find every .log file')).to.include('log');
    expect(queryWords('open https://example.com/pricing')).to.deep.equal(['navigate', 'url', 'example']);
    expect(queryWords('fork acme/api')).to.deep.equal(['fork', 'acme', 'api']);
    expect(queryWords('read and/or write')).to.deep.equal(['read', 'write']);
  });

  it('drops what a contraction leaves: no one-letter words, a negation keeps its verb', () => {
    expect(queryWords("reply to Anna's last email")).to.deep.equal(['reply', 'anna', 'last', 'email']);
    expect(queryWords("what's the weather")).to.deep.equal(['weather']);
    expect(queryWords("I'd like the repo's README")).to.deep.equal(['like', 'repo', 'file', 'readme']);
    expect(queryWords("don't delete it, it isn't done")).to.deep.equal(['delete', 'done']);
    expect(queryWords("I can't log in and it won't start")).to.deep.equal(['login', 'start']);
    expect(queryWords('the users\u2019 settings')).to.deep.equal(['users', 'settings']);
    expect(queryWords("pick size 'M' from the list")).to.deep.equal(['pick', 'size', 'm', 'list']);
    expect(queryWords('archive it if you don\u2019t mind')).to.deep.equal(['archive']);
  });

  it("drops the words that only order a request's steps: then, finally, lastly, afterwards", () => {
    expect(queryWords('look in the project folder and then open the readme')).to.deep.equal(['look', 'folder', 'open', 'file', 'readme']);
    expect(queryWords('commit it, afterwards push, and finally tag it')).to.deep.equal(['commit', 'push', 'tag']);
  });

  it('drops what something is to be called: a name, not words of the request; a file name keeps its type', () => {
    expect(queryWords('make a new folder called reports')).to.deep.equal(['make', 'new', 'folder']);
    expect(queryWords('Create a Todoist project called Move 2027')).to.deep.equal(['create', 'todoist', 'project', '2027']);
    expect(queryWords("open an issue titled 'Broken pagination' for the web team")).to.deep.equal(['create', 'issue']);
    expect(queryWords('save it to a file named tesla.md')).to.deep.equal(['save', 'file', 'named', 'file', 'md']);
    // Nothing after it: the verb stays.
    expect(queryWords('where is this function called')).to.deep.equal(['where', 'function', 'called']);
  });

  it('reads "open an issue", "file a ticket", "log a bug" as making one; "open the issue" reads it', () => {
    expect(queryWords('file an issue on github')).to.deep.equal(['create', 'issue', 'github']);
    expect(queryWords('open a new Jira bug for the export')).to.deep.equal(['create', 'jira', 'bug', 'export']);
    expect(queryWords('log a PR')).to.deep.equal(['create', 'pr']);
    expect(queryWords('open the issue')).to.deep.equal(['open', 'issue']);
    expect(queryWords('file a report')).to.deep.equal(['file', 'report']);
  });

  it('reads "would you mind" as politeness, not a mind map', () => {
    expect(queryWords('Would you mind booking a meeting with Sam')).to.deep.equal(['booking', 'meeting', 'sam']);
    expect(queryWords("archive it if you don't mind")).to.deep.equal(['archive']);
    expect(queryWords('make a mind map of the ideas')).to.deep.equal(['make', 'mind', 'map', 'ideas']);
  });

  it('reads "log in" and "sign in" as signing in, not as a log; after a determiner "log" stays the noun', () => {
    expect(queryWords('log in to the website with my account')).to.deep.equal(['login', 'website', 'account']);
    expect(queryWords('I cannot sign in')).to.deep.equal(['cannot', 'login']);
    expect(queryWords('logged into the server')).to.deep.equal(['login', 'server']);
    expect(queryWords('show the log in the pod')).to.deep.equal(['show', 'log', 'pod']);
    expect(queryWords('move the old logs into it')).to.deep.equal(['move', 'old', 'logs']);
  });

  it('ranks a question about what to wear as one about the weather, and deleting in other words as deleting', () => {
    const ranked = index([
      ['x_weather_get_forecast', 'Get the weather forecast for a location.'],
      ['x_crm_create_property', 'Create a property for a payload.'],
      ['x_mail_delete_email', 'Delete an email message.'],
      ['x_mail_get_email', 'Get an email message to read.'],
    ]);
    const first = (query: string): string | undefined => ranked(query)[0];
    expect(first('flying to Denver on Friday, not sure whether to pack a heavy coat')).to.equal('x_weather_get_forecast');
    expect(first('that newsletter I never read: get rid of it')).to.equal('x_mail_delete_email');
  });

  it('reads "uncommitted" as a question for the working tree\'s status, and an invitation as a calendar event', () => {
    const ranked = index([
      ['x_git_git_status', 'Show the working tree status including staged, unstaged, and untracked files.'],
      ['x_git_git_commit', 'Record changes to the repository.'],
      ['x_git_git_push', 'Update the remote repository with local commits.'],
      ['x_calendar_create_event', 'Create a new calendar event.'],
      ['x_mail_forward_email', 'Forward a message.'],
    ]);
    expect(ranked('are there uncommitted changes in the repo?')[0]).to.equal('x_git_git_status');
    expect(ranked('an invite for Friday')[0]).to.equal('x_calendar_create_event');
  });

  it('reads "execute this snippet" as running code', () => {
    const ranked = index([
      ['x_runner_run_code', 'Run code and return the result.'],
      ['x_web_read_page', 'Read a page and print its text.'],
    ]);
    expect(ranked('execute this snippet: print(sum(range(10)))')[0]).to.equal('x_runner_run_code');
  });

  it('reads a build tool named in a request as a command to run in a terminal', () => {
    const ranked = index([
      ['x_desk_start_process', 'Start a terminal process for shell commands.'],
      ['x_ci_get_job_logs', 'Get the logs of a failed CI job.'],
    ]);
    expect(ranked('run npm run build in the site folder')[0]).to.equal('x_desk_start_process');
  });

  it('reads an apartment or a cabin as a place to stay, and what to pack as a question of the weather', () => {
    const ranked = index([
      ['x_bnb_search', 'Search rental stays by location and dates.'],
      ['x_wx_get_forecast', 'Get the weather forecast for a place.'],
      ['x_todo_list_tasks', 'List tasks.'],
    ]);
    expect(ranked('an apartment in Kyoto for two weeks')[0]).to.equal('x_bnb_search');
    expect(ranked('what should I pack for Lisbon')[0]).to.equal('x_wx_get_forecast');
  });

  it('reads an environment variable as an env var, a logo as an image, a starter or boilerplate as a template', () => {
    const ranked = index([
      ['x_host_manage_env_vars', 'Manage the env vars of a project.'],
      ['x_art_generate_image', 'Generate an image from a prompt.'],
      ['x_flow_search_templates', 'Search workflow templates.'],
    ]);
    expect(ranked('change the environment variable API_URL')[0]).to.equal('x_host_manage_env_vars');
    expect(ranked('a logo for a coffee shop')[0]).to.equal('x_art_generate_image');
    expect(ranked('a starter for syncing payments')[0]).to.equal('x_flow_search_templates');
  });

  it('reads unpacking an archive as a command to run in a terminal', () => {
    const ranked = index([
      ['x_desk_start_process', 'Start a new terminal process running a command.'],
      ['x_board_archive_card', 'Archive a card.'],
    ]);
    expect(ranked('unzip the release into /opt/app')[0]).to.equal('x_desk_start_process');
  });

  it('reads a program that runs as a process', () => {
    const ranked = index([
      ['x_desk_list_processes', 'List all running processes.'],
      ['x_docs_query_docs', 'Query documentation about a program.'],
    ]);
    expect(ranked('which programs are running on this machine')[0]).to.equal('x_desk_list_processes');
  });

  it("reads a service's latency, throughput, uptime or CPU as its metrics", () => {
    const ranked = index([
      ['x_dd_query_metrics', 'Query timeseries metrics data.'],
      ['x_dd_list_hosts', 'List all hosts and their owners.'],
    ]);
    expect(ranked("what's the p95 latency of the checkout service")[0]).to.equal('x_dd_query_metrics');
    expect(ranked('the CPU over the last hour')[0]).to.equal('x_dd_query_metrics');
  });

  it('reads formal verbs as the plain ones tools are named with: enumerate lists, terminate kills, relocate moves', () => {
    const ranked = index([
      ['x_k8s_list_pods', 'List pods in a namespace.'],
      ['x_desk_kill_process', 'Kill a process by its id.'],
      ['x_fs_move_file', 'Move a file to a directory.'],
      ['x_k8s_exec_in_pod', 'Run a command in a pod of a namespace.'],
    ]);
    expect(ranked('enumerate all pods residing in the monitoring namespace')[0]).to.equal('x_k8s_list_pods');
    expect(ranked('terminate PID 4821')[0]).to.equal('x_desk_kill_process');
    expect(ranked('relocate report.pdf')[0]).to.equal('x_fs_move_file');
  });

  it("reads a planner's and a reporter's words as the tools': locate finds, a publication is a paper, grab gets, reassigning updates an assignee, a tag a label, depending a dependency, the CRM its companies and contacts, an org an organization, a webinar a video, higher an elevation, an icon an image, calculating running code, an encyclopedia Wikipedia, switching setting the current one, larger a size, chasing somebody a message, announcing news, buckets a histogram, a spread and its outliers a distribution", () => {
    const ranked = index([
      ['x_fs_search_files', 'Search for files matching a pattern.'],
      ['x_fs_read_file', 'Read a file.'],
      ['x_papers_search_papers', 'Search research papers by topic.'],
      ['x_web_get_page', 'Get a web page as text.'],
      ['x_tasks_update_task', 'Update a task: its title, due date or assignee.'],
      ['x_tasks_create_task', 'Create a task.'],
      ['x_mail_add_label', 'Add a label to an email.'],
      ['x_mail_delete_email', 'Delete an email.'],
      ['x_sentry_search_issues', 'Search error issues.'],
      ['x_rentals_search', 'Search rental stays for a place and dates.'],
      ['x_tasks_add_dependencies', 'Set the dependencies of a task.'],
      ['x_sales_search_objects', 'Search companies, contacts or deals by their properties.'],
      ['x_chart_generate_organization_chart', 'Generate an organization chart.'],
      ['x_video_get_transcript', 'Get the transcript of a video.'],
      ['x_maps_elevation', 'Get the elevation of locations on the earth.'],
      ['x_art_generate_image', 'Generate images from a prompt.'],
      ['x_runner_run_code', 'Run a code snippet and return the result.'],
      ['x_wiki_read_article', 'Read a Wikipedia article.'],
      ['x_k8s_context', 'List, get or set the current context of the cluster.'],
      ['x_k8s_cluster_info', 'Cluster info.'],
      ['x_fs_list_with_sizes', 'List the files of a directory with their sizes.'],
      ['x_fs_list', 'List the files of a directory.'],
      ['x_mail_send_email', 'Send an email.'],
      ['x_web_search', 'Search the web for news and pages.'],
      ['x_chart_histogram', 'Generate a histogram chart of the frequency of values within ranges.'],
      ['x_chart_boxplot', 'Generate a boxplot of statistical summaries and the distribution of values.'],
    ]);
    expect(ranked('locate the invoice files')[0]).to.equal('x_fs_search_files');
    expect(ranked('recent publications on graph neural networks')[0]).to.equal('x_papers_search_papers');
    expect(ranked('grab the web page')[0]).to.equal('x_web_get_page');
    expect(ranked('reassign the task to Jordan')[0]).to.equal('x_tasks_update_task');
    expect(ranked('tag the email as urgent')[0]).to.equal('x_mail_add_label');
    expect(ranked('checkout failures since the release')[0]).to.equal('x_sentry_search_issues');
    expect(ranked('a condo in Lisbon for June')[0]).to.equal('x_rentals_search');
    expect(ranked('the deploy task should depend on the security review')[0]).to.equal('x_tasks_add_dependencies');
    expect(ranked('look Globex up in the CRM')[0]).to.equal('x_sales_search_objects');
    expect(ranked('an org chart of the leadership')[0]).to.equal('x_chart_generate_organization_chart');
    expect(ranked('the recording of the webinar on onboarding')[0]).to.equal('x_video_get_transcript');
    expect(ranked('is the summit much higher than the parking lot')[0]).to.equal('x_maps_elevation');
    expect(ranked('a minimalist icon of a lighthouse')[0]).to.equal('x_art_generate_image');
    expect(ranked('calculate the compound interest over 12 years')[0]).to.equal('x_runner_run_code');
    expect(ranked('the encyclopedia entry on the Byzantine Empire')[0]).to.equal('x_wiki_read_article');
    expect(ranked('switch to the production cluster')[0]).to.equal('x_k8s_context');
    expect(ranked('which files in the directory are larger than the rest')[0]).to.equal('x_fs_list_with_sizes');
    expect(ranked('chase the client about the unpaid invoice')[0]).to.equal('x_mail_send_email');
    expect(ranked('has the provider announced an outage')[0]).to.equal('x_web_search');
    expect(ranked('bucket the response times and show the counts')[0]).to.equal('x_chart_histogram');
    expect(ranked('the spread and outliers of salaries')[0]).to.equal('x_chart_boxplot');
    expect(ranked('how are the response times distributed')[0]).to.equal('x_chart_histogram');
  });

  it('reads stopping a process as terminating it, where another tool is named for stopping', () => {
    const ranked = index([
      ['x_desk_kill_process', 'Terminate a running process by PID.'],
      ['x_desk_stop_search', 'Stop an active file search that is running in the background.'],
    ]);
    expect(ranked('find the process eating all the CPU and stop it')[0]).to.equal('x_desk_kill_process');
    expect(ranked('stop the search for log files')[0]).to.equal('x_desk_stop_search');
  });

  it('reads a task marked done as closed, an update shared as posted, error rates as metrics', () => {
    const ranked = index([
      ['x_todo_close_tasks', 'Close tasks in the to-do list.'],
      ['x_todo_get_tasks', 'Get tasks and their labels.'],
      ['x_chat_send', 'Send a message to a channel.'],
      ['x_chat_create_channel', 'Create a text channel with a topic.'],
      ['x_dd_query_metrics', 'Query timeseries metrics data.'],
      ['x_dd_list_hosts', 'List the hosts of a service.'],
    ]);
    expect(ranked('mark the dentist task as done')[0]).to.equal('x_todo_close_tasks');
    expect(ranked('share an update in the launch channel')[0]).to.equal('x_chat_send');
    expect(ranked("how did last week's deploy affect error rates")[0]).to.equal('x_dd_query_metrics');
  });

  it('reads maintenance as downtime, a dump as a read, translating a time as converting it', () => {
    const ranked = index([
      ['x_dd_schedule_downtime', 'Schedule a downtime for a host.'],
      ['x_dd_get_hosts', 'Get the hosts of an account.'],
      ['x_kg_read_graph', 'Read the whole graph of entities.'],
      ['x_kg_create_entities', 'Create entities in the graph.'],
      ['x_clock_convert_time', 'Convert a time between time zones.'],
      ['x_clock_current_time', 'The current time in a time zone.'],
    ]);
    expect(ranked("tonight's maintenance on host db-03")[0]).to.equal('x_dd_schedule_downtime');
    expect(ranked('a JSON dump of every entity in the graph')[0]).to.equal('x_kg_read_graph');
    expect(ranked('translate the time 3pm Paris into New York time')[0]).to.equal('x_clock_convert_time');
  });

  it('reads drawing or sketching something as generating it', () => {
    const ranked = index([
      ['x_art_generate_image', 'Generate images from a text prompt.'],
      ['x_disk_read_media_file', 'Read an image or audio file.'],
    ]);
    expect(ranked('draw me a picture of a fox reading a book')[0]).to.equal('x_art_generate_image');
    expect(ranked('sketch a picture of a lighthouse')[0]).to.equal('x_art_generate_image');
  });

  it('reads a toggle as a feature flag, CI credits as usage, errors thrown and exceptions as issues', () => {
    const ranked = index([
      ['x_ld_get_feature_flag', 'Get a feature flag.'],
      ['x_ci_download_usage_data', 'Download usage data of the CI plan.'],
      ['x_ci_list_projects', 'List the projects followed.'],
      ['x_tracker_search_issues', 'Search for grouped issues in the tracker.'],
      ['x_notes_update_block', 'Update a block of a page.'],
    ]);
    expect(ranked('does staging have the pricing toggle turned on')[0]).to.equal('x_ld_get_feature_flag');
    expect(ranked('are we over our CI credits this month')[0]).to.equal('x_ci_download_usage_data');
    expect(ranked('the homepage is throwing errors')[0]).to.equal('x_tracker_search_issues');
    expect(ranked('the unresolved exceptions')[0]).to.equal('x_tracker_search_issues');
  });

  it("reads a document's parts and a calendar's words: a bullet is a block, a wiki a page, a party an event, a clash busy time, repeating a recurrence, highlighting formatting", () => {
    const ranked = index([
      ['x_notes_append_block_children', 'Append block children to a page.'],
      ['x_notes_create_page', 'Create a page.'],
      ['x_cal_create_event', 'Create a calendar event.'],
      ['x_cal_get_freebusy', 'Query free/busy information.'],
      ['x_todo_update_tasks', 'Update tasks: content, due, recurring.'],
      ['x_sheet_format_range', 'Format a range of cells.'],
    ]);
    expect(ranked('a bullet for my reading list')[0]).to.equal('x_notes_append_block_children');
    expect(ranked('the team wiki')[0]).to.equal('x_notes_create_page');
    expect(ranked('the holiday party on Dec 18')[0]).to.equal('x_cal_create_event');
    expect(ranked('anything clashing with the offsite')[0]).to.equal('x_cal_get_freebusy');
    expect(ranked('repeat it every Saturday')[0]).to.equal('x_todo_update_tasks');
    expect(ranked('highlight the totals')[0]).to.equal('x_sheet_format_range');
  });

  it("reads a lead or a prospect as a CRM's contact", () => {
    const ranked = index([
      ['x_crm_create_objects', 'Create CRM objects such as contacts and companies.'],
      ['x_mail_send', 'Send a message.'],
    ]);
    expect(ranked('the lead Marta Diaz')[0]).to.equal('x_crm_create_objects');
    expect(ranked('my prospects')[0]).to.equal('x_crm_create_objects');
  });

  it('reads submitting a form as clicking its button', () => {
    const ranked = index([
      ['x_web_click', 'Click an element on the page.'],
      ['x_web_hover', 'Hover over an element on the page.'],
    ]);
    expect(ranked('submit the contact form')[0]).to.equal('x_web_click');
  });

  it('reads a pdf or a zip named by its type as a file', () => {
    const ranked = index([
      ['x_amail_move_email', 'Move an email to a folder.'],
      ['x_zfs_move_file', 'Move a file to a folder.'],
    ]);
    expect(ranked('move the invoice pdf into the archive folder')[0]).to.equal('x_zfs_move_file');
  });

  it('reads a preference as something to remember about a person', () => {
    const ranked = index([
      ['x_memory_add_observations', 'Add new observations to existing entities in the knowledge graph.'],
      ['x_metrics_query', 'Query metrics.'],
    ]);
    expect(ranked('you should already know I prefer metric units')[0]).to.equal('x_memory_add_observations');
  });

  it('reads "find" as a search: "find the issue" asks the searching tool before one that comments', () => {
    const ranked = index([
      ['x_a_comment_issue', 'Comment on an issue.'],
      ['x_b_search_issue', 'Search an issue.'],
    ]);
    expect(ranked('find the issue')[0]).to.equal('x_b_search_issue');
  });
});
