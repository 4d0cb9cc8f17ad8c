/**
 * Issue 37, ranking round 3: evidence beyond a tool's name and description. Its input
 * schema's words as a low field, and its server's other tools (a request whose words are
 * spread over one server lifts that server's tools). Also the packed postings: documents far
 * apart (gaps of two and three bytes) rank as before.
 */
import { expect } from 'chai';
import { MAX_SCHEMA_TEXT, schemaText } from '../../plugins/meta-tools/ranking/schema-text.js';
import { rankedNames, toolCorpus, type CorpusTool } from '../support/tool-corpus.js';

type Tool = CorpusTool;

const ranker = (tools: Tool[]) => rankedNames(toolCorpus(tools));

describe("ranking evidence: the tool's input schema and its server's other tools", () => {
  it('finds a tool by what its input schema takes, below a tool whose description says it', () => {
    const names = ranker([
      ['x_cal_get_event', 'Get an event.', 'cal'],
      [
        'x_cal_update_event',
        'Change an event.',
        'cal',
        { type: 'object', properties: { start: { type: 'string', description: 'New start time.' }, calendarId: { type: 'string' } } },
      ],
      ['x_cal_reschedule', 'Move an event to another start time.', 'cal'],
    ]);
    const ranked = names('give the event another start time');
    // Without the schema field the two short tools tie on "event" and name order puts get_event first.
    expect(ranked.indexOf('x_cal_update_event')).to.be.lessThan(ranked.indexOf('x_cal_get_event'));
    expect(ranked[0]).to.equal('x_cal_reschedule');
  });

  it("reads property names, descriptions and enum values (an array's items' too), nested ones too, within MAX_SCHEMA_TEXT", () => {
    const text = schemaText({
      type: 'object',
      properties: {
        sendAt: { type: 'string', description: 'When to send it.' },
        priority: { type: 'string', enum: ['urgent', 'normal', 3] },
        filter: { type: 'object', properties: { labelName: { type: 'string' } } },
        recipients: { type: 'array', items: { type: 'object', properties: { address: { type: 'string' } } } },
        // Monitors filtered by state: the choices are the items' ("which monitors are alerting").
        groupStates: { type: 'array', items: { type: 'string', enum: ['alert', 'warn'] } },
      },
    });
    for (const w of ['sendAt', 'When to send it.', 'urgent', 'normal', 'labelName', 'address', 'alert', 'warn']) expect(text).to.include(w);
    expect(text).not.to.include('3');
    const huge = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`field${i}`, { type: 'string', description: 'x'.repeat(50) }])),
    };
    expect(schemaText(huge).length).to.be.at.most(MAX_SCHEMA_TEXT);
  });

  it("ranks a tool of the server that answers the whole request above the same match on another server's tool", () => {
    const names = ranker([
      ['x_todo_create_project', 'Create a project.', 'todo'],
      ['x_todo_get_tasks', 'Get tasks by filter.', 'todo'],
      ['x_errors_create_project', 'Create a project.', 'errors'],
      ['x_errors_list_issues', 'List issues.', 'errors'],
    ]);
    // Both create_project tools match "project" alike (name order alone puts the error
    // tracker's first); "task" is what the to-do server's other tool is about, "issues" the tracker's.
    const forTasks = names('start a new project for my tasks');
    expect(forTasks.indexOf('x_todo_create_project')).to.be.lessThan(forTasks.indexOf('x_errors_create_project'));
    const forIssues = names('start a new project for my issues');
    expect(forIssues.indexOf('x_errors_create_project')).to.be.lessThan(forIssues.indexOf('x_todo_create_project'));
  });

  it('ranks the same through packed postings: documents far apart, gaps of one, two and three bytes', () => {
    const tools: Tool[] = Array.from({ length: 17_000 }, (_, i) => [`x_s${i % 7}_tool_${i}`, `Does chore number ${i}.`, `s${i % 7}`]);
    tools[3] = ['x_s3_alpha', 'Rare needleword here.', 's3'];
    tools[300] = ['x_s6_beta', 'Another needleword, rarer still: needleword twice.', 's6'];
    tools[16_999] = ['x_s0_gamma', 'The last needleword.', 's0'];
    const ranked = ranker(tools)('needleword');
    expect(ranked).to.have.members(['x_s3_alpha', 'x_s6_beta', 'x_s0_gamma']);
    expect(ranked).to.have.length(3);
  });
});
