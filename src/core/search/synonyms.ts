// A small table of words developers use for the same thing, and the Chinese words our users type for
// common tool verbs and nouns. A query term also matches its synonyms (at a lower weight). Entries are
// general vocabulary — verbs of tools, nouns of the things they act on, shell commands, the Chinese for
// both — never a tool or a query of one catalog. A word may be in two groups ("add": create, sum).
// Chinese entries are two characters long: the query side gives CJK text as characters and bigrams.
import { stem } from './tokens';

const GROUPS: readonly (readonly string[])[] = [
  // Verbs.
  ['delete', 'remove', 'rm', 'erase', 'destroy', 'drop', 'nuke', 'forget', 'purge', '删除', '移除', '去掉'],
  ['create', 'add', 'new', 'make', 'insert', 'append', 'mkdir', 'open', '创建', '新建', '添加', '增加'],
  ['list', 'ls', 'enumerate', 'show', '列出', '列表'],
  ['all', 'whole', 'entire', 'every', '全部', '所有'],
  ['search', 'find', 'query', 'lookup', 'grep', 'look', '搜索', '查找', '查询', '搜寻'],
  ['read', 'get', 'fetch', 'open', 'cat', 'view', 'load', 'grab', 'retrieve', '读取', '获取', '打开', '查看'],
  ['write', 'save', 'put', 'store', '写入', '保存'],
  ['update', 'edit', 'modify', 'change', 'patch', 'replace', '更新', '修改', '编辑'],
  ['run', 'execute', 'exec', 'invoke', 'launch', 'trigger', 'start', 'kick', '运行', '执行', '启动'],
  ['move', 'rename', 'mv', '移动', '重命名'],
  ['copy', 'cp', 'duplicate', 'clone', '复制'],
  ['send', 'post', 'notify', 'tell', 'ping', 'announce', '发送', '通知'],
  ['toggle', 'enable', 'disable', 'turn', '开关', '切换'],
  ['monitor', 'watch', 'track', '监控', '监视'],
  ['navigate', 'visit', 'goto', 'browse', '访问', '跳转'],
  ['evaluate', 'eval', 'javascript', 'js', 'script', '脚本'],
  ['resize', 'viewport', '尺寸'],
  ['simulate', 'simulated', 'fake', 'mock', 'dummy', '模拟'],
  // Things tools act on.
  ['file', '文件'],
  ['document', 'doc', 'docs', 'documentation', '文档'],
  ['directory', 'folder', 'dir', 'mkdir', '目录'],
  ['path', '路径'],
  ['content', 'contents', 'text', 'body', '内容'],
  ['config', 'configuration', 'settings', 'setting', '配置', '设置'],
  ['issue', 'ticket', 'bug', '问题', '工单'],
  ['repository', 'repo', '仓库'],
  ['pull', '拉取'],
  ['merge', '合并'],
  ['ci', 'check', 'checks', 'pipeline', 'build', '构建'],
  ['message', 'msg', 'chat', 'say', 'said', '消息'],
  ['channel', '频道'],
  ['reaction', 'react', 'emoji', 'thumbs', 'upvote', '表情'],
  ['comment', 'reply', '评论', '回复'],
  ['user', 'account', 'member', 'people', 'who', 'profile', '用户'],
  ['image', 'picture', 'photo', 'screenshot', 'png', 'jpg', 'jpeg', 'gif', 'logo', 'icon', '图片', '截图', '图像'],
  ['video', 'youtube', 'clip', '视频'],
  ['news', 'headline', '新闻'],
  ['latest', 'recent', 'newest', '最新', '最近'],
  ['web', 'url', 'page', 'website', 'site', 'browser', '网页', '网站'],
  ['network', 'xhr', 'ajax', 'traffic', '网络'],
  ['log', 'logs', 'logging', '日志'],
  ['entity', 'node', 'entities', '实体', '节点'],
  ['relation', 'relationship', 'link', 'edge', 'connection', '关系'],
  ['observation', 'fact', '事实'],
  ['memory', 'knowledge', 'graph', 'remember', 'memorize', 'recall', '记忆', '知识', '记住'],
  ['echo', 'repeat', '回显'],
  ['sum', 'add', 'total', 'plus', '求和', '加法'],
  ['number', 'num', 'digit', 'numeric', '数字'],
  ['environment', 'env', 'variable', '环境', '变量'],
  ['time', 'date', 'clock', '时间', '日期'],
  ['weather', 'forecast', '天气'],
  ['commit', 'checkin', '提交'],
  ['branch', '分支'],
  ['database', 'db', 'sql', 'table', 'row', 'column', '数据库', '表格'],
  ['email', 'mail', 'inbox', '邮件', '邮箱'],
  ['calendar', 'event', 'meeting', '日历', '会议'],
  ['size', 'info', 'metadata', 'stat', 'big', '信息', '大小'],
  ['coordinate', 'coordinates', 'latitude', 'longitude', 'lat', 'lng', 'geocode', 'gps', '坐标', '经纬'],
  ['direction', 'route', 'itinerary', '路线', '导航'],
  ['distance', 'far', '距离'],
  ['near', 'nearby', 'local', 'around', '附近'],
  ['elevation', 'altitude', '海拔'],
  ['compress', 'gzip', 'zip', '压缩'],
];

/**
 * Other names of the things servers are named for (a product, a tool of the trade): a query that says
 * `kubectl` names the `kubernetes` server. Also synonyms like the groups above.
 */
const ALIASES: readonly (readonly string[])[] = [
  ['kubernetes', 'k8s', 'kubectl', 'kube'],
  ['postgres', 'postgresql', 'psql', 'pg'],
  ['github', 'gh'],
  ['filesystem', 'fs'],
  ['javascript', 'js', 'nodejs'],
];

/**
 * Abbreviations that stand for several words: the query term also searches for those words, at full
 * weight (`PRs` are pull requests, which is what the tools call them).
 */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  pr: 'pull request',
  mr: 'merge request',
  db: 'database',
  repo: 'repository',
  dir: 'directory',
  env: 'environment',
  msg: 'message',
  config: 'configuration',
  k8s: 'kubernetes',
};

function tableOf(groups: readonly (readonly string[])[]): ReadonlyMap<string, readonly string[]> {
  const table = new Map<string, Set<string>>();
  for (const group of groups) {
    const terms = group.map((word) => (/^[a-z]+$/.test(word) ? stem(word) : word));
    for (const term of terms) {
      const set = table.get(term) ?? new Set<string>();
      for (const other of terms) if (other !== term) set.add(other);
      table.set(term, set);
    }
  }
  return new Map([...table].map(([term, set]) => [term, [...set].sort()]));
}

/** Each term's synonyms, both as the table writes them and stemmed (the index holds stemmed terms). */
const TABLE = tableOf([...GROUPS, ...ALIASES]);
const ALIAS_TABLE = tableOf(ALIASES);

/** The synonyms of a (stemmed) term, sorted; none for a term the table does not know. */
export function synonymsOf(term: string): readonly string[] {
  return TABLE.get(term) ?? [];
}

const EXPANSIONS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries(ABBREVIATIONS).map(([short, long]) => [stem(short), long.split(' ').map((word) => stem(word))]),
);

/** The (stemmed) words an abbreviation stands for; none for a term that is not one. */
export function expansionsOf(term: string): readonly string[] {
  return EXPANSIONS.get(term) ?? [];
}

/** The other names of a (stemmed) term that names a product or tool of the trade, sorted. */
export function aliasesOf(term: string): readonly string[] {
  return ALIAS_TABLE.get(term) ?? [];
}
