import { ATTACK_CORPUS } from './attack-corpus';
import { SURFACE_CORPUS } from './surface-corpus';
import type { CaseOutcome } from './answer-checks';
import { corpusTable, runCorpus } from './corpus-runner';
import { bootSecurityEnv, type SecurityEnv } from './security-env';

/**
 * The attack corpus (test/security/attack-corpus.ts) against the real plugin over HTTP:
 * every case behaves as its expectation says and nothing leaks (no hidden text in an answer,
 * no change outside the vault or to a protected note, no prototype pollution, a hidden
 * note's answer identical to a missing one's). Prints the table of figures.
 */
/**
 * The resources, prompts, completion, roots and several-vaults corpus first (it writes nothing,
 * and its probes need the vault as built: the tool traversal cases create notes and folders at
 * in-vault spellings such as `passwd/`), then the tool and door corpus.
 */
const CORPUS = [...SURFACE_CORPUS, ...ATTACK_CORPUS];

describe('attack corpus', () => {
  let env: SecurityEnv;
  let outcomes: CaseOutcome[];

  beforeAll(async () => {
    env = await bootSecurityEnv();
    outcomes = await runCorpus(CORPUS, env);
    process.stdout.write(`\nAttack corpus (${CORPUS.length} cases)\n${corpusTable(outcomes)}\n`);
  }, 240000);
  afterAll(async () => env?.done());

  test('no case leaks', () => {
    const leaks = outcomes.filter((o) => o.leaks.length).map((o) => `${o.family} / ${o.id}: ${o.leaks.join('; ')}`);
    expect(leaks).toEqual([]);
  });

  test('every case is refused or answered as expected', () => {
    const off = outcomes.filter((o) => !o.asExpected).map((o) => `${o.family} / ${o.id}: ${[...o.problems, ...o.leaks].join('; ')}`);
    expect(off).toEqual([]);
  });

  test('the corpus covers every family the issue names', () => {
    const families = new Set(outcomes.map((o) => o.family));
    for (const family of [
      'door-host',
      'door-origin',
      'door-key',
      'token-timing',
      'traversal',
      'hidden-probe',
      'hidden-listing',
      'access-edit',
      'oversize',
      'slow',
      'batch-bomb',
      'deep-nesting',
      'prototype',
      'redos',
      'agent-md',
      'client-roots',
      'forward-token',
      'forward-foreign',
      'vault-arg',
    ]) {
      expect(families).toContain(family);
    }
  });
});
