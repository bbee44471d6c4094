// Chinese (simplified and traditional): orders to the model. Docs say 忽略 ("ignore") a warning, 读取
// ("read") a .env file, 提交 ("commit") to a repository: a finding needs what the order is about —
// earlier instructions, the user kept in the dark, a secret file sent or pasted into the answer.
import { pattern, SECRET_FILE, URL, within } from './shared';

const IGNORE = '(?:忽略|忽視|无视|無視|忽视|不要理会|不要理會|不用理会|别理会|忘记|忘記|忘掉|抛开|拋開|抛弃|覆盖|覆蓋|绕过|繞過)';
const EARLIER = '(?:之前|以前|先前|此前|上面|以上|上述|前面|所有|全部|一切|系统|系統|原来|原來|原有|原始|收到|给你|給你)';
const RULES = '(?:指令|指示|提示词|提示詞|系统提示|系統提示|规则|規則|命令|设定|設定|约束|約束|限制)';
const USER = '(?:用户|用戶|使用者)';
const PASS_ON = '(?:发送|發送|发到|發到|上传|上傳|附在|附上|附加|包含在|贴在|貼在|粘贴|貼上|泄露|洩露|转发|轉發|回答中|回复中|回覆中|答复中|打印|输出到|輸出到)';
const SECRETS = '(?:密码|密碼|密钥|密鑰|私钥|私鑰|令牌|凭据|憑據|凭证|憑證|api\\s*key|cookie|聊天记录|聊天記錄|对话记录|對話記錄|历史记录|歷史記錄)';

/** A text without Han characters skips these patterns. */
const NEEDS = /\p{Script=Han}/u;

export const CHINESE = [
  pattern('ignore-instructions', `${IGNORE}\\s*(?:掉)?\\s*(?:你|您)?(?:的)?\\s*${EARLIER}${within(10)}${RULES}`),
  pattern('hide-from-user', `(?:不要|别|別|不得|切勿|无需|無需|不必|不准)\\s*(?:告诉|告訴|告知|通知|提醒|透露|让|讓)${within(6)}${USER}|对${USER}保密|對${USER}保密|瞒着${USER}|瞞著${USER}`),
  pattern('without-user-knowing', `在?${USER}不知情|不让${USER}(?:知道|察觉|发现)|不讓${USER}(?:知道|察覺|發現)|(?:悄悄|偷偷|秘密)(?:地)?(?:读取|讀取|发送|發送|上传|上傳|执行|執行|运行|運行|调用|調用|复制|複製|删除|刪除|修改|转发|轉發)`),
  pattern('sensitive-file-request', `${SECRET_FILE}${within(40)}${PASS_ON}|${PASS_ON}${within(40)}${SECRET_FILE}`),
  pattern('read-secrets', `${SECRETS}${within(30)}(?:发送|發送|发到|發到|上传|上傳|提交到|转发|轉發|泄露|洩露|包含在|附在)|(?:发送|發送|上传|上傳|泄露|洩露|转发|轉發|窃取|竊取)${within(20)}${USER}?(?:的)?${SECRETS}`),
  pattern('exfiltrate', `(?:发送|發送|发到|發到|上传|上傳|提交|转发|轉發|传到|傳到|回传|回傳)${within(60)}${URL}|${URL}${within(10)}(?:发送|發送|上传|上傳|提交|转发|轉發)`),
  pattern('tool-shadowing', `(?:调用|調用|使用|运行|運行|执行|執行)(?:任何|其他|其它|别的|別的)${within(6)}工具${within(4)}(?:之前|以前|前)${within(10)}(?:先|首先|必须|必須|务必|務必|一定要)${within(4)}(?:调用|調用|使用|运行|運行|执行|執行|读取|讀取|发送|發送|上传|上傳)`),
  pattern('skip-confirmation', `(?:无需|無需|不用|不必|不要|别|別|无须|無須|未经|未經)${within(6)}${USER}${within(6)}(?:确认|確認|同意|许可|許可|批准|授权|授權)`),
  pattern('role-override', `(?:从现在开始|從現在開始|从现在起|從現在起|从今以后|從今以後|接下来|接下來)[,\\s]*(?:你|您)(?:就)?(?:是|扮演|不再)|你现在是|你現在是|新的?(?:系统)?(?:指令|指示)(?:如下)?\\s*[:—-]`),
  pattern('reveal-system-prompt', `(?:输出|輸出|打印|显示|顯示|透露|泄露|洩露|重复|重複|告诉我|告訴我)${within(10)}(?:系统提示|系統提示|提示词|提示詞|全部对话|全部對話|对话记录|對話記錄)`),
].map((found) => ({ ...found, needs: NEEDS }));
