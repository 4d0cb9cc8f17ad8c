import { expect } from 'chai';
import { queryWords } from '../../plugins/meta-tools/ranking/words.js';
import { expectEachFloodWithin } from '../support/floods.js';
import { firstRanked, rankedNames, toolCorpus, type CorpusTool } from '../support/tool-corpus.js';

/**
 * Everyday words for what tools do, found by stop 72's blind probes of requests over tools picked
 * at random from the development catalogue. The tools are those servers' own, with their
 * descriptions as they ship (shortened), each beside the tools that took its place.
 */
const TOOLS: CorpusTool[] = [
  ['x_dc_stop_search', 'Stop an active search. Stops the background search process gracefully.', 'desktop-commander'],
  ['x_dc_start_search', 'Start a streaming search that can return results progressively.', 'desktop-commander'],
  ['x_mail_cancel_scheduled', 'Cancel a scheduled email. Removes it from the queue and deletes the associated draft.', 'email'],
  ['x_cal_delete_event', 'Delete a calendar event.', 'calendar'],
  ['x_k8s_kubectl_rollout', 'Manage the rollout of a resource (e.g., deployment, daemonset, statefulset)', 'kubernetes'],
  ['x_netlify_deploy_services_updater', 'Select and run one of the following Netlify write operations deploy-site', 'netlify'],
  ['x_circleci_run_rollback_pipeline', 'Run a rollback pipeline for a CircleCI project.', 'circleci'],
  ['x_git_reset', 'Reset current HEAD to specified state. Can be used to unstage files or discard commits.', 'git'],
  ['x_trello_get_card_comments', 'Retrieve all comments from a specific Trello card', 'trello'],
  ['x_trello_get_card', 'Get detailed information about a specific Trello card', 'trello'],
  ['x_trello_get_card_history', 'Get the history/actions of a specific card', 'trello'],
  ['x_everything_echo', 'Echoes back the input string', 'everything'],
  ['x_cal_create_event', 'Create a new calendar event.', 'calendar'],
  ['x_mail_get_thread', 'Reconstruct a full email conversation thread. Returns all related messages.', 'email'],
  ['x_todoist_reopen_tasks', 'Reopen tasks in Todoist.', 'todoist'],
  ['x_git_checkout', 'Switch branches or restore working tree files.', 'git'],
  ['x_trello_get_health', 'Get quick system health status for monitoring and load balancing', 'trello'],
  ['x_trello_get_recent_activity', 'Fetch recent activity on the Trello board', 'trello'],
  ['x_cal_respond_to_event', 'Respond to a calendar event invitation.', 'calendar'],
  ['x_git_merge', 'Merge a branch into the current branch.', 'git'],
  ['x_asana_create_subtask', 'Create a new subtask for an existing task', 'asana'],
  ['x_asana_get_task', 'Get detailed information about a specific task', 'asana'],
  ['x_asana_create_task', 'Create a new task in a project', 'asana'],
  ['x_dc_write_pdf', 'Create a new PDF file or modify an existing one.', 'desktop-commander'],
  ['x_pw_press_key', 'Press a key on the keyboard', 'playwright'],
  [
    'x_ci_get_latest_pipeline_status',
    'Retrieves the status of the latest pipeline for a CircleCI project. It can be used to check pipeline status, get latest build status.',
    'circleci',
  ],
  ['x_ci_get_build_failure_logs', 'Helps debug CircleCI build failures by retrieving failure logs.', 'circleci'],
  ['x_time_current_time', 'Get the current date and time.', 'time'],
  ['x_weather_get_current_conditions', 'Get the most recent weather observation for a location.', 'weather'],
];

describe('lexical ranking reads everyday words for what tools do', () => {
  const catalogue = toolCorpus(TOOLS);
  const first = firstRanked(catalogue);
  const topThree = (query: string) => rankedNames(catalogue)(query).slice(0, 3);

  it('cancelling a running search stops it (and a meeting is still deleted)', () => {
    expect(first('that file search is taking forever, cancel it')).to.equal('x_dc_stop_search');
    expect(first('cancel the meeting on the calendar')).to.equal('x_cal_delete_event');
  });

  it('undoing a deploy is a rollback (among the tools that name the deploy itself)', () => {
    expect(topThree('undo the last deploy of the checkout service')).to.include('x_circleci_run_rollback_pipeline');
  });

  it("a card's discussion is its comments", () => {
    expect(first('what did people say in the discussion on the launch card?')).to.equal('x_trello_get_card_comments');
  });

  it('repeating back what was typed is an echo (a repeating event is still an event)', () => {
    expect(first('repeat back what I type, just to test the connection')).to.equal('x_everything_echo');
  });

  it('a back-and-forth, hyphenated or not, is a conversation thread', () => {
    expect(first('show me the whole back-and-forth with the landlord')).to.equal('x_mail_get_thread');
    expect(first('show me the whole back and forth with the landlord')).to.equal('x_mail_get_thread');
  });

  it('asking whether something is up, down or responding asks for its health', () => {
    expect(first('is the Trello integration up and responding?')).to.equal('x_trello_get_health');
    expect(queryWords('is the meeting set up?')).to.not.include('health');
    expect(queryWords('is it up to date')).to.not.include('health');
  });

  it('breaking a task into pieces makes subtasks (breaking down costs does not)', () => {
    expect(first('break the launch task into a smaller piece for writing the press release')).to.equal('x_asana_create_subtask');
    expect(queryWords('break down the costs into categories')).to.not.include('subtask');
  });

  it('whether a build is green or red asks its status', () => {
    expect(first('is the build green right now?')).to.equal('x_ci_get_latest_pipeline_status');
    expect(queryWords('are the tests passing on main')).to.include('status');
  });

  it('reads floods of the words these phrases start with in linear time', () => {
    const floods = [
      'is the a '.repeat(11_000) + 'up',
      'are '.repeat(25_000) + 'down',
      'break the a b '.repeat(7_000) + 'task into',
      'build is still '.repeat(6_000) + 'red',
    ];
    expectEachFloodWithin(floods, 2_000, queryWords);
  });
});

/**
 * Stop 73's fifth draw: one plain request for each of 25 more tools picked at random among those
 * nobody's request had found yet, written before any was ranked; these are its dev part's misses,
 * and the sixth draw's (written after the fifth's changes, its figure kept as ranked then).
 */
const FIFTH_DRAW: CorpusTool[] = [
  ['x_sentry_whoami', "Identify the authenticated user in Sentry. Use this tool when you need to: get the user's name and email address.", 'sentry'],
  ['x_sentry_get_issue_tag_values', 'Get tag value distribution for a specific Sentry issue.', 'sentry'],
  ['x_discord_login', 'Logs in to Discord using the configured token', 'discord'],
  ['x_linear_get_user_issues', "Get issues assigned to a user or the authenticated user's issues", 'linear'],
  ['x_git_worktree', 'Manage multiple working trees: list worktrees, add new worktrees for parallel work, remove worktrees.', 'git'],
  ['x_github_fork_repository', 'Fork a GitHub repository to your account or specified organization', 'github'],
  ['x_git_clone', 'Clone a repository into a new directory', 'git'],
  ['x_git_branch', 'List Git branches', 'git'],
  ['x_mongodb_insert_many', 'Insert an array of documents into a MongoDB collection.', 'mongodb'],
  ['x_mongodb_create_collection', 'Creates a new collection in a database.', 'mongodb'],
  ['x_airtable_create_record', 'Create a new record in a table', 'airtable'],
  ['x_hubspot_get_engagement', 'Retrieves a HubSpot engagement by ID.', 'hubspot'],
  ['x_datadog_get_logs', 'Search and retrieve logs from Datadog', 'datadog'],
  ['x_k8s_kubectl_logs', 'Get logs from Kubernetes resources like pods, deployments, or jobs', 'kubernetes'],
  ['x_todoist_update_comments', 'Update comments in Todoist', 'todoist'],
  ['x_todoist_get_comments_list', 'Get a list of comments for a task or project in Todoist', 'todoist'],
  ['x_todoist_create_comments', 'Create comments in Todoist', 'todoist'],
  ['x_dc_edit_block', 'Apply surgical text replacements to files.', 'desktop-commander'],
  ['x_notion_update_data_source', 'Notion | Update a data source', 'notion'],
  ['x_notion_query_data_source', 'Notion | Query a data source', 'notion'],
  ['x_mongodb_rename_collection', 'Renames a collection in a MongoDB database', 'mongodb'],
  ['x_k8s_ping', 'Verify that the counterpart is still responsive and the connection is alive.', 'kubernetes'],
  ['x_k8s_kubectl_reconnect', 'Reconnect to the Kubernetes cluster with a fresh configuration', 'kubernetes'],
  ['x_email_check_health', 'Check the health of the email server connection and the account', 'email'],
  ['x_trello_get_health_detailed', 'Get detailed system health status of the Trello integration', 'trello'],
  ['x_git_remote', 'Manage remote repositories: list remotes, add new remotes, remove remotes, rename remotes, or get/set remote URLs.', 'git'],
  ['x_github_search_repositories', 'Search for GitHub repositories', 'github'],
  ['x_github_create_branch', 'Create a new branch in a GitHub repository', 'github'],
];

describe('lexical ranking reads everyday words for what tools do: the fifth and sixth draws', () => {
  const catalogue = toolCorpus(FIFTH_DRAW);
  const first = firstRanked(catalogue);

  it('which account I am signed in to asks who I am (who I am meeting does not)', () => {
    expect(first('which account am I logged into for error tracking?')).to.equal('x_sentry_whoami');
    expect(queryWords('who am I signed in as')).to.include('whoami');
    expect(queryWords('who am I meeting today')).to.not.include('whoami');
  });

  it('a second working copy of a repository is a worktree (another checkout session is not)', () => {
    expect(first('set up a second working copy of the repo on the hotfix branch so I can work on both at once')).to.equal('x_git_worktree');
    expect(queryWords('create another checkout session for the cart')).to.not.include('worktree');
  });

  it('adding records to a collection inserts documents (adding photos to a collection does not)', () => {
    expect(first('add these 300 customer records to the customers collection')).to.equal('x_mongodb_insert_many');
    expect(queryWords('add these photos to my collection')).to.not.include('insert');
  });

  it('a logged call, read back, is a CRM engagement (logged errors stay logs)', () => {
    expect(first('show me the logged call 5512 in the CRM')).to.equal('x_hubspot_get_engagement');
    expect(queryWords('show the logged errors')).to.not.include('engagement');
  });

  it('editing a comment updates it, and renaming anything but a file updates its name', () => {
    expect(first('edit the comment I left on my groceries to-do')).to.equal('x_todoist_update_comments');
    expect(first('rename a data source in my notes database')).to.equal('x_notion_update_data_source');
  });

  it('whether a server still responds asks for its ping too, not only health checks', () => {
    expect(rankedNames(catalogue)('check the kubernetes server is still responding').slice(0, 2)).to.include('x_k8s_ping');
  });

  it('pointing origin at a URL sets a git remote (a point of origin does not)', () => {
    expect(first('point origin at the new GitHub URL')).to.equal('x_git_remote');
    expect(queryWords('the point of origin of the shipment')).to.not.include('remote');
  });

  it('reads floods of the words these phrases start with in linear time', () => {
    const floods = [
      'fix the typo '.repeat(8_000) + 'in',
      'wait on the a b '.repeat(7_000) + 'task',
      'not getting '.repeat(10_000) + 'alerts',
      'which board am i '.repeat(6_000) + 'working on',
      'point the '.repeat(10_000) + 'origin to',
      'which account am i '.repeat(5_000) + 'logged in',
      'logged '.repeat(20_000) + 'call',
      'add the a b '.repeat(8_000) + 'records to the collection',
      'second working '.repeat(8_000) + 'copy',
    ];
    expectEachFloodWithin(floods, 2_000, queryWords);
  });
});

/** Stop 73's seventh draw, written after every change above, its figure kept as ranked then: its misses. */
const SEVENTH_DRAW: CorpusTool[] = [
  ['x_trello_update_comment', 'Update the given comment with the new text', 'trello'],
  ['x_trello_add_comment', 'Add a comment to a card', 'trello'],
  ['x_trello_get_card_comments', 'Retrieve all comments from a specific Trello card', 'trello'],
  ['x_asana_add_task_dependencies', 'Set dependencies for a task', 'asana'],
  ['x_asana_create_task', 'Create a new task in a project', 'asana'],
  ['x_email_check_notification_setup', 'Diagnose desktop notification support on this platform.', 'email'],
  ['x_email_configure_alerts', 'Configure alert rules for incoming email', 'email'],
  ['x_weather_get_alerts', 'Get weather alerts for a US state', 'weather'],
  ['x_trello_get_active_board_info', 'Get information about the currently active board', 'trello'],
  ['x_trello_get_board_labels', 'Get all labels on a board', 'trello'],
  ['x_trello_set_active_board', 'Set the active board for future operations', 'trello'],
];

describe('lexical ranking reads everyday words for what tools do: the seventh draw', () => {
  const first = firstRanked(toolCorpus(SEVENTH_DRAW));

  it('fixing a typo in a comment edits it', () => {
    expect(first('fix the typo in my comment on the signup card')).to.equal('x_trello_update_comment');
  });

  it('a task that waits on another depends on it (waiting for a reply does not)', () => {
    expect(first('make the deploy task wait on the QA task')).to.equal('x_asana_add_task_dependencies');
    expect(queryWords('wait for a reply from Sam')).to.not.include('dependency');
  });

  it('not getting alerts asks to check how notifications are set up', () => {
    expect(first('why am I not getting desktop alerts for new mail?')).to.equal('x_email_check_notification_setup');
  });

  it('which board I am working on asks for the active one', () => {
    expect(first('which board am I working on right now?')).to.equal('x_trello_get_active_board_info');
  });
});

/**
 * Stop 74's eighth and ninth draws (written before any ranking was seen; 21 of 22 and 16 of 21 at
 * five as ranked then): their misses that were meanings.
 */
const EIGHTH_DRAW: CorpusTool[] = [
  ['x_datadog_unmute_host', 'Unmute a host in Datadog', 'datadog'],
  ['x_datadog_mute_host', 'Mute a host in Datadog', 'datadog'],
  ['x_datadog_schedule_downtime', 'Schedule a downtime in Datadog', 'datadog'],
  ['x_email_configure_alerts', 'Configure alert rules for incoming email', 'email'],
  ['x_discord_discord_add_reaction', 'Adds an emoji reaction to a specific Discord message', 'discord'],
  ['x_sentry_find_releases', 'Find releases in Sentry.', 'sentry'],
  ['x_discord_discord_send', 'Sends a message to a Discord channel', 'discord'],
  ['x_git_git_fetch', 'Fetch updates from a remote repository. Downloads objects and refs without merging them.', 'git'],
  ['x_git_git_pull', 'Pull changes from a remote repository. Fetches and integrates changes into the current branch.', 'git'],
  ['x_github_merge_pull_request', 'Merge a pull request', 'github'],
  ['x_github_update_pull_request_branch', 'Update a pull request branch with the latest changes from the base branch', 'github'],
];

describe('lexical ranking reads everyday words for what tools do: the eighth and ninth draws', () => {
  const first = firstRanked(toolCorpus(EIGHTH_DRAW));

  it('pulling the latest without merging it is a fetch (reviewing a pull request but not merging it is not)', () => {
    expect(first("pull down the latest from origin but don't merge anything yet")).to.equal('x_git_git_fetch');
    expect(first('grab the new commits without merging')).to.equal('x_git_git_fetch');
    expect(queryWords("review the pull request but don't merge it")).to.not.include('fetch');
  });

  it('alerting on something again unmutes it (monitoring something new does not)', () => {
    expect(first('start alerting on web-03 again, the maintenance is over')).to.equal('x_datadog_unmute_host');
    expect(first('resume alerts for the db host again')).to.equal('x_datadog_unmute_host');
    expect(queryWords('resume alerts for the db host again')).to.include('host');
    expect(queryWords('start monitoring the new host')).to.not.include('unmute');
  });

  it('reacting with something adds a reaction (reacting to feedback does not)', () => {
    expect(first('react with 👍 and 🚀 to the release announcement')).to.equal('x_discord_discord_add_reaction');
    expect(queryWords('react to the feedback on the release')).to.not.include('reaction');
  });

  it('reads floods of the words these phrases start with in linear time', () => {
    const floods = [
      'pull a b '.repeat(11_000) + 'without merging',
      'get '.repeat(25_000) + "but don't merge",
      'start alerting on a b '.repeat(4_500) + 'again',
      'resume alerts for '.repeat(5_500) + 'a again',
      'react '.repeat(16_000) + 'with',
    ];
    expectEachFloodWithin(floods, 2_000, queryWords);
  });
});

/** Stop 74's eleventh draw (tools drawn from the whole catalogue, few requests naming a service; 18 of 24 at five as written): its misses that were meanings. */
const ELEVENTH_DRAW: CorpusTool[] = [
  ['x_kubernetes_cleanup', 'Cleanup all managed resources', 'kubernetes'],
  ['x_kubernetes_kubectl_create', 'Create Kubernetes resources using various methods', 'kubernetes'],
  ['x_kubernetes_list_api_resources', 'List the API resources available in the cluster', 'kubernetes'],
  ['x_kubernetes_install_helm_chart', 'Install a Helm chart with support for both standard and template-based installation', 'kubernetes'],
  ['x_sentry_find_organizations', 'Find organizations that the user has access to in Sentry.', 'sentry'],
  ['x_sentry_find_teams', 'Find teams in an organization in Sentry.', 'sentry'],
  ['x_sentry_search_issues', 'Search for grouped issues in Sentry.', 'sentry'],
  ['x_trello_get_board_members', 'Get all members of a board', 'trello'],
];

describe('lexical ranking reads everyday words for what tools do: the eleventh draw', () => {
  const first = firstRanked(toolCorpus(ELEVENTH_DRAW));

  it('tearing something down cleans it up, the words between kept', () => {
    expect(first('tear down everything you created in the cluster')).to.equal('x_kubernetes_cleanup');
    expect(queryWords('tear the staging environment down')).to.include.members(['cleanup', 'staging', 'environment']);
    expect(queryWords('tear a page out of the notebook')).to.not.include('cleanup');
  });

  it('orgs are organizations', () => {
    expect(queryWords('list my orgs')).to.include('organizations');
  });

  it('which organizations (teams) I belong to asks for those I have access to', () => {
    expect(first('which orgs do I belong to?')).to.equal('x_sentry_find_organizations');
    expect(first('which teams am I a member of?')).to.equal('x_sentry_find_teams');
    expect(queryWords('which orgs do I belong to?')).to.include('access');
    expect(queryWords('which team does this card belong to?')).to.not.include('access');
  });

  it('reads floods of the words these phrases start with in linear time', () => {
    const floods = ['tear a b '.repeat(11_000) + 'down', 'which teams do i '.repeat(6_000) + 'belong to', 'orgs '.repeat(20_000)];
    expectEachFloodWithin(floods, 2_000, queryWords);
  });
});
