// Japanese: orders to the model. Articles say a warning can be 無視 ("ignored") and give 指示
// ("instructions"); a finding needs earlier or system instructions, the user kept out, or data sent.
import { pattern, SECRET_FILE, URL, within } from './shared';

const EARLIER = '(?:以前|これまで|今まで|前|上記|以上|先ほど|最初|元|システム|すべて|全て)';
const RULES = '(?:指示|命令|ルール|規則|設定|プロンプト|制約|指令)';
const USER = '(?:ユーザー|ユーザ|利用者|使用者)';
const PASS_ON = '(?:送信|送って|送る|アップロード|転送|貼り付け|貼りつけ|含め|添付|出力|表示|投稿)';
const SECRETS = '(?:パスワード|APIキー|api\\s*key|秘密鍵|認証情報|トークン|クレデンシャル|チャット履歴|会話履歴)';

/** A text without kana or kanji skips these patterns. */
const NEEDS = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;

export const JAPANESE = [
  pattern('ignore-instructions', `${EARLIER}${within(8)}${RULES}${within(8)}(?:を|は)${within(6)}(?:無視|忘れ|破棄|上書き)|${RULES}${within(4)}(?:を)?(?:無視|忘れ)(?:して|しろ|せよ|しなさい|してください)`),
  pattern('hide-from-user', `${USER}(?:に|には)${within(6)}(?:伝えず|伝えない|言わず|言わない|知らせず|知らせない|教えず|教えない|見せず|見せない|報告せず|内緒)|${USER}(?:に)?(?:は)?(?:秘密|内緒)(?:に|で)`),
  pattern('without-user-knowing', `こっそり|ひそかに|密かに|${USER}(?:に)?(?:気づかれ|知られ)(?:ない|ず)`),
  pattern('sensitive-file-request', `${SECRET_FILE}${within(30)}${PASS_ON}`),
  pattern('read-secrets', `${SECRETS}${within(30)}(?:送信|送って|アップロード|転送|貼り付け|含め|出力)`),
  pattern('exfiltrate', `${URL}${within(12)}(?:に|へ)${within(6)}(?:送信|送って|アップロード|転送|投稿)|(?:送信|アップロード|転送)${within(10)}${URL}`),
  pattern('tool-shadowing', `(?:他|ほか|別|任意)の(?:ツール)${within(10)}(?:使う|使用する|呼び出す|実行する)(?:前|まえ)に${within(20)}(?:必ず|まず|最初に|先に)`),
  pattern('skip-confirmation', `${USER}(?:に|の)${within(4)}(?:確認|許可|承認|同意)(?:を)?(?:求めず|とらず|取らず|せず|得ず|求めない|取らない|しない)`),
  pattern('role-override', `(?:今から|これから|今後|以後)(?:は)?[,\\s]*(?:あなた|君|お前)は${within(20)}(?:です|だ|である|として|になり)|(?:あなた|君|お前)は(?:今から|これから|今後|以後)${within(20)}(?:です|だ|である|として|になり)|新しい(?:システム)?(?:指示|命令)\\s*[:：]`),
  pattern('reveal-system-prompt', `システムプロンプト${within(12)}(?:出力|表示|教え|見せ|繰り返)`),
].map((found) => ({ ...found, needs: NEEDS }));
