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
