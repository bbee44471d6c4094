// Verbs that delete, discard, install or reach another machine are signed by every word: a rule made
// from one such command covers that command only, so `git clean -n` never covers `git clean -fdx`.
import * as assert from 'node:assert/strict';
import { check } from './helpers/approvalCheck';


describe('command signatures: destructive and remote verbs are signed by every word', () => {
  const cases: Array<[string, string]> = [
    ['git clean -fdx', 'git clean -n'],
    ['git push --force origin main', 'git push'],
    ['git push origin :main', 'git push origin feature'],
    ['git reset --hard HEAD~3', 'git reset HEAD file'],
    ['git checkout -- .', 'git checkout main'],
    ['git restore .', 'git restore README.md'],
    ['git rm -r src', 'git rm old.txt'],
    ['git branch -D main', 'git branch -D feature'],
    ['git stash drop 3', 'git stash drop 0'],
    ['git stash pop 2', 'git stash pop 0'],
    ['git remote add evil https://evil.example/x', 'git remote add origin https://example.com/x'],
    ['git worktree remove --force ../x', 'git worktree remove ../y'],
    ['docker run -v /:/host alpine sh', 'docker run alpine'],
    ['docker exec web rm -rf /data', 'docker exec web ls'],
    ['docker rm -f db', 'docker rm old'],
    ['docker compose down -v', 'docker compose down'],
    ['docker system prune -af --volumes', 'docker system prune'],
    ['gh api -X DELETE repos/o/r', 'gh api repos/o/r'],
    ['gh api repos/o/r --method DELETE', 'gh api repos/o/r'],
    ['gh pr merge 2 --admin', 'gh pr merge 1'],
    ['gh repo delete o/evil --yes', 'gh repo delete o/scratch --yes'],
    ['kubectl delete pod db-0', 'kubectl delete pod web-0'],
    ['kubectl apply -f evil.yaml', 'kubectl apply -f app.yaml'],
    ['kubectl exec db-0 -- rm -rf /data', 'kubectl exec db-0 -- ls'],
    ['kubectl -n prod scale deploy web --replicas=0', 'kubectl -n dev scale deploy web --replicas=1'],
    ['helm uninstall prod', 'helm uninstall dev'],
    ['terraform state rm aws_db.prod', 'terraform state rm aws_db.test'],
    ['terraform apply -auto-approve', 'terraform apply'],
    ['python -m pytest --basetemp /home/me', 'python -m pytest'],
    ['npm uninstall react', 'npm uninstall left-pad'],
    ['npm publish --access public', 'npm publish --dry-run'],
    ['pip uninstall -y requests', 'pip uninstall -y six'],
    ['cargo add evil', 'cargo add serde'],
    ['gem install evil', 'gem install rake'],
    ['brew install evil', 'brew install jq'],
    ['apt-get install -y evil', 'apt-get install -y jq'],
    ['systemctl stop sshd', 'systemctl stop myapp'],
    ['aws s3 rm s3://prod --recursive', 'aws s3 rm s3://scratch/x'],
    ['go clean -cache -modcache', 'go clean'],
  ];
  for (const [command, allowed] of cases) {
    it(`${command} is not approved under ${JSON.stringify(allowed)}`, () => {
      const result = check(command, [allowed]);
      assert.equal(result.autoApproved, false, result.reason);
    });
  }

  it('the exact command that was allowed is approved again', () => {
    for (const command of ['git clean -n', 'git push', 'docker run alpine', 'gh api repos/o/r', 'kubectl delete pod web-0', 'terraform plan']) {
      assert.equal(check(command, [command]).autoApproved, true, command);
    }
  });
});

describe('command signatures: everyday commands keep matching their rules', () => {
  const cases: Array<[string, string]> = [
    ['git status -s', 'git status'], ['git status --porcelain=v2 -b', 'git status'], ['git log --oneline -n 5', 'git log'], ['git log -5 --format=%H', 'git log --format=%H'],
    ['git log --graph --decorate --all', 'git log'], ['git diff --stat HEAD~1', 'git diff'], ['git diff --cached -U0', 'git diff'], ['git show HEAD --name-only', 'git show'],
    ['git branch -a', 'git branch'], ['git branch -vv', 'git branch'], ['git add -A', 'git add --all'], ['git commit -am "fix: x"', 'git commit -m first'],
    ['git fetch --prune', 'git fetch'], ['git rev-parse --show-toplevel', 'git rev-parse HEAD'], ['git ls-files -m', 'git ls-files -m'], ['git grep -n TODO', 'git grep x'],
    ['git cherry-pick -x abc', 'git cherry-pick def'], ['git switch -c feature', 'git switch main'], ['git stash list', 'git stash list'],
    ['npm test', 'npm test'], ['npm run build', 'npm run build'], ['npm run build --if-present', 'npm run build'], ['npm test -- --watch', 'npm test -- --watch'],
    ['npm run -s lint', 'npm run lint'], ['npm ci --no-audit --no-fund', 'npm ci'], ['pnpm -r test', 'pnpm test'], ['yarn test --silent', 'yarn test'],
    ['cargo test --release', 'cargo test'], ['cargo build -q --all-features', 'cargo build'], ['cargo clippy --all-targets -- -D warnings', 'cargo clippy -- -D warnings'],
    ['cargo fmt --check', 'cargo fmt'], ['cargo +nightly test -p core', 'cargo test'],
    ['go test ./...', 'go test ./...'], ['go test -run TestX -v -count=1 ./...', 'go test'], ['go test ./... -race', 'go test'], ['go vet ./...', 'go vet'],
    ['go build ./...', 'go build'],
    ['pytest -q -x', 'pytest'], ['pytest -k fast -m "not slow" tests/', 'pytest tests/'], ['python -m pytest -q -x', 'python -m pytest'],
    ['python3 -m pytest --tb=short -vv', 'python3 -m pytest'], ['uv run pytest -x', 'uv run pytest'], ['uv run --frozen pytest', 'uv run pytest'],
    ['make', 'make'], ['make -j4 test', 'make test'], ['make -s -k test', 'make test'],
    ['ls -la', 'ls'], ['ls -lah src', 'ls'], ['ls --color=auto -1', 'ls'], ['cat -n file', 'cat'], ['grep -rn foo src', 'grep'], ['grep -E "a|b" -i --include="*.ts" -r .', 'grep'],
    ['grep -C3 foo f', 'grep'], ['rg -n foo', 'rg'], ['rg -i --hidden -g "*.ts" foo', 'rg'], ['rg -uu -t py foo', 'rg'], ['head -n 20 f', 'head'], ['head -20 f', 'head'],
    ['tail -f log', 'tail'], ['wc -l src/a.ts', 'wc'], ['sort -u f', 'sort'], ['sort -k2 -t, -n f', 'sort'], ['uniq -c', 'uniq'], ['cut -d: -f1 /etc/passwd', 'cut'],
    ['diff -u a b', 'diff'], ['du -sh .', 'du'], ['df -h', 'df'], ['jq -r .name package.json', 'jq'], ['tree -L 2 -I node_modules', 'tree'], ['echo -n hi', 'echo'],
    ['grep -rn --include=*.ts foo src', 'grep'], ['uv sync --frozen', 'uv sync'], ['git merge --no-ff main', 'git merge main'], ['git rebase --autosquash main', 'git rebase main'],
    ['pip list --outdated', 'pip list'], ['python -m pip list -o', 'python -m pip list'],
    ['docker ps -a', 'docker ps'], ['docker logs -f --tail 100 web', 'docker logs'], ['docker images -q', 'docker images'], ['docker compose ps', 'docker compose ps'],
    ['kubectl get pods -n dev -o wide', 'kubectl get pods'], ['kubectl logs -f web -c app', 'kubectl logs'], ['gh pr list --limit 5', 'gh pr list'], ['gh pr view 12 --json title', 'gh pr view'],
  ];
  for (const [command, allowed] of cases) {
    it(`${command} is approved under ${JSON.stringify(allowed)}`, () => {
      const result = check(command, [allowed]);
      assert.equal(result.autoApproved, true, result.reason);
    });
  }
});
