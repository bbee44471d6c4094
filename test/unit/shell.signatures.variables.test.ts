// Variables are an allowlist: only the inert variables (core/shell/inertVariables.ts) may set the
// environment of an auto-approved command — before it, through `env`, or through `export` — and a plain
// shell variable may be set only under a lower-case name, which no program reads from the environment.
import * as assert from 'node:assert/strict';
import { check } from './helpers/approvalCheck';


describe('command signatures: variables are an allowlist', () => {
  describe('a variable outside the allowlist asks, named, however it is set', () => {
    const cases: Array<[string, string[], RegExp]> = [
      ['MAKEFILES=evil.mk make', ['make'], /sets MAKEFILES, which is not one of the variables/],
      ["GNUMAKEFLAGS='-f evil.mk' make", ['make'], /sets GNUMAKEFLAGS/],
      ['PERLLIB=./lib perl t.pl', ['perl t.pl'], /sets PERLLIB/],
      ["MAVEN_OPTS='-javaagent:x.jar' mvn test", ['mvn test'], /sets MAVEN_OPTS/],
      ['KUBECONFIG=./kc kubectl get pods', ['kubectl get'], /sets KUBECONFIG/],
      ['UV_CONFIG_FILE=./uv.toml uv run pytest', ['uv run'], /sets UV_CONFIG_FILE/],
      ['env MAKEFILES=evil.mk make', ['make'], /`env` sets MAKEFILES/],
      ['env -i GNUMAKEFLAGS=-fx make', ['make'], /`env` sets GNUMAKEFLAGS/],
      ['export MAKEFILES=evil.mk; make', ['make'], /sets MAKEFILES/],
      ['export KUBECONFIG=./kc && kubectl get pods', ['kubectl get'], /sets KUBECONFIG/],
      ['MAKEFILES=evil.mk; make', ['make'], /sets MAKEFILES/],
      ['MAVEN_OPTS=-Dx; mvn test', ['mvn test'], /sets MAVEN_OPTS/],
      ['makefiles=evil.mk; export makefiles; make', ['make'], /puts makefiles into the environment/],
      ['export PERLLIB; perl t.pl', ['perl t.pl'], /puts PERLLIB into the environment/],
      ['for MAKEFILES in evil.mk; do make; done', ['make'], /`for MAKEFILES in …` sets MAKEFILES/],
      ['read MAKEFILES < f; make', ['read', 'make'], /sets MAKEFILES from its input/],
      ['printf -v GNUMAKEFLAGS %s -fx; make', ['printf', 'make'], /sets GNUMAKEFLAGS from its input/],
      ['mapfile PERLLIB < f', ['mapfile'], /sets PERLLIB from its input/],
      ['http_proxy=http://x:1; npm ci', ['npm ci'], /sets http_proxy/],
      ['LANG=/tmp/locale sort f', ['sort'], /sets LANG to a value it is not known to take safely/],
      ['TZ=$ZONE date', ['date'], /sets TZ to a value that comes from an expansion/],
      ['FOO=1 make', ['make'], /sets FOO, which is not one of the variables/],
      ['IFS=x make', ['make'], /sets IFS/],
    ];
    for (const [command, always, reason] of cases) {
      it(`${command} asks`, () => {
        const result = check(command, always);
        assert.equal(result.autoApproved, false, result.reason);
        assert.match(result.reason, reason);
      });
    }
  });

  describe('inert variables and shell variables of the command\'s own stay approvable', () => {
    const cases: Array<[string, string[]]> = [
      ['NO_COLOR=1 npm test', ['npm test']],
      ['LANG=C LC_ALL=C sort f', ['sort']],
      ['env TZ=UTC date +%s', ['date']],
      ['export CI=1 NODE_ENV=test; npm test', ['npm test']],
      ['x=1; echo "$x"', ['echo']],
      ['dir=src; ls "$dir"', ['ls']],
      ['for f in a.txt b.txt; do wc -l "$f"; done', ['wc']],
      ['IFS=, read -r a b < f; echo "$a"', ['read', 'echo']],
      ['while IFS= read -r line; do echo "$line"; done < list.txt', ['read', 'echo']],
      ['printf -v out %s x; echo "$out"', ['printf', 'echo']],
    ];
    for (const [command, always] of cases) {
      it(`${command} is approved under ${JSON.stringify(always)}`, () => {
        const result = check(command, always);
        assert.equal(result.autoApproved, true, result.reason);
      });
    }
  });
});
