// The allowlist of variables that may prefix an auto-approved command: known names with known values
// only; everything else, including names nobody has listed as dangerous, is a problem named.
import * as assert from 'node:assert/strict';
import { INERT_VARIABLES, isInertVariable, variableProblem } from '../../src/core/shell';

describe('inert variables', () => {
  it('allows colour, locale, time zone and mode switches with ordinary values', () => {
    for (const [name, value] of [['NO_COLOR', '1'], ['FORCE_COLOR', '0'], ['LANG', 'en_US.UTF-8'], ['LC_ALL', 'C'], ['TZ', 'Europe/Paris'], ['TZ', 'UTC'], ['CI', 'true'], ['NODE_ENV', 'test'], ['COLUMNS', '120']]) {
      assert.equal(variableProblem(name, value), undefined, `${name}=${value}`);
    }
  });

  it('names every variable outside the table, dangerous-looking or not', () => {
    for (const name of ['MAKEFILES', 'GNUMAKEFLAGS', 'PERLLIB', 'MAVEN_OPTS', 'KUBECONFIG', 'UV_CONFIG_FILE', 'FOO', 'lang']) {
      assert.match(variableProblem(name, 'x') ?? '', new RegExp(`sets ${name}, which is not one of the variables`), name);
      assert.equal(isInertVariable(name), false, name);
    }
  });

  it('refuses values that are paths, expansions or outside a variable\'s known forms', () => {
    assert.match(variableProblem('LANG', '/tmp/locale') ?? '', /not known to take safely/);
    assert.match(variableProblem('TZ', '../../tmp/zone') ?? '', /not known to take safely/);
    assert.match(variableProblem('TZ', '/etc/localtime') ?? '', /not known to take safely/);
    assert.match(variableProblem('TERM', 'x/../../evil') ?? '', /not known to take safely/);
    assert.match(variableProblem('NODE_ENV', 'production --require x') ?? '', /not known to take safely/);
    assert.match(variableProblem('CI', undefined) ?? '', /comes from an expansion/);
  });

  it('lists each variable once, with what it changes', () => {
    const names = INERT_VARIABLES.map((variable) => variable.name);
    assert.equal(new Set(names).size, names.length);
    for (const variable of INERT_VARIABLES) assert.ok(variable.effect.length > 0, variable.name);
  });
});
