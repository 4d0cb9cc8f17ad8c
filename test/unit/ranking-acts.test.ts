/**
 * What a tool's name says it does to the world against what the request asks
 * (plugins/meta-tools/ranking/acts.ts): a tool that writes ranks below the tools that read the
 * same things when the request plainly reads, and as before when it asks for a change or says
 * neither.
 */
import { expect } from 'chai';
import { readsOnly } from '../../plugins/meta-tools/ranking/acts.js';
import { rankedNames, toolCorpus, type CorpusTool } from '../support/tool-corpus.js';

const ranker = (tools: CorpusTool[]) => rankedNames(toolCorpus(tools));

describe('ranking: a writing tool for a request that reads', () => {
  const flags = ranker([
    ['x_ld_create_feature_flag', 'Creates a new feature flag within a project, to define feature toggles for rollouts.', 'ld'],
    ['x_ld_list_feature_flags', 'Retrieves all feature flags within a project, including targeting rules.', 'ld'],
  ]);
  // Alike but for the verb of their names: a tie the name order would give to create_event.
  const events = ranker([
    ['x_cal_create_event', 'Create an event in a calendar.', 'cal'],
    ['x_cal_get_event', 'Get an event of a calendar.', 'cal'],
  ]);

  it('ranks the reading tool first for a question: "which feature flags are on", "when is the dentist event"', () => {
    expect(flags('Which feature flags are turned on in production?')[0]).to.equal('x_ld_list_feature_flags');
    expect(events('when is the dentist event in my calendar')[0]).to.equal('x_cal_get_event');
  });

  it('leaves a request that asks for a change, or says neither, as it was', () => {
    expect(flags('add a feature flag for the new checkout')[0]).to.equal('x_ld_create_feature_flag');
    expect(events('put the dentist event in my calendar and show it')[0]).to.equal('x_cal_create_event');
    expect(events('the dentist event is not in my calendar yet')[0]).to.equal('x_cal_create_event');
  });

  it('reads a request as reading only with a sign of reading and none of changing', () => {
    expect(readsOnly('Which feature flags are turned on in production?', false)).to.equal(true);
    expect(readsOnly('show me the flags', false)).to.equal(true);
    // A change asked for (the ranking finds it among the request's words and their relatives).
    expect(readsOnly('show me the flags', true)).to.equal(false);
    // A statement often asks for a write without a verb: no sign of reading, no weight.
    expect(readsOnly("I've got a dentist appointment on Tuesday that isn't on my calendar yet", false)).to.equal(false);
    expect(readsOnly('Priya is allergic to peanuts', false)).to.equal(false);
    // A word that only contains a reading word is no sign: "showcase", "whichever".
    expect(readsOnly('the showcase of whichever product', false)).to.equal(false);
  });
});
