// A small table of words developers use for the same thing, and the Chinese words our users type for
// common tool verbs and nouns. A query term also matches its synonyms (at a lower weight).
import { stem } from './tokens';

const GROUPS: readonly (readonly string[])[] = [
  ['delete', 'remove', 'rm', 'erase', 'destroy', 'drop', '删除', '移除'],
  ['create', 'add', 'new', 'make', 'insert', '创建', '新建', '添加'],
  ['list', 'ls', 'enumerate', 'show', 'all', '列出', '列表'],
  ['search', 'find', 'query', 'lookup', 'grep', 'look', '搜索', '查找', '查询'],
  ['read', 'get', 'fetch', 'open', 'cat', 'view', 'load', '读取', '获取', '打开'],
  ['write', 'save', 'put', 'store', '写入', '保存'],
  ['update', 'edit', 'modify', 'change', 'patch', 'replace', '更新', '修改', '编辑'],
  ['run', 'execute', 'exec', 'invoke', 'launch', '运行', '执行'],
  ['move', 'rename', 'mv', '移动', '重命名'],
  ['file', 'document', 'doc', '文件', '文档'],
  ['directory', 'folder', 'dir', '目录', '文件夹'],
  ['issue', 'ticket', 'bug', '问题', '工单'],
  ['repository', 'repo', '仓库'],
  ['pr', 'pull', 'merge', '合并'],
  ['message', 'msg', 'chat', '消息'],
  ['user', 'account', 'member', '用户'],
  ['image', 'picture', 'photo', 'screenshot', '图片', '截图'],
  ['web', 'url', 'page', 'website', 'browser', '网页', '网站'],
  ['entity', 'node', 'entities', '实体'],
  ['relation', 'relationship', 'link', 'edge', '关系'],
  ['memory', 'knowledge', 'graph', '记忆', '知识'],
  ['echo', 'repeat', '回显'],
  ['sum', 'add', 'total', '求和'],
  ['environment', 'env', 'variable', '环境'],
  ['time', 'date', 'clock', '时间', '日期'],
  ['weather', 'forecast', '天气'],
  ['commit', 'checkin', '提交'],
  ['branch', '分支'],
  ['database', 'db', 'sql', 'table', '数据库'],
  ['email', 'mail', '邮件'],
  ['calendar', 'event', 'meeting', '日历', '会议'],
  ['size', 'info', 'metadata', 'stat', '信息', '大小'],
];

/** Each term's synonyms, both as the table writes them and stemmed (the index holds stemmed terms). */
const TABLE: ReadonlyMap<string, readonly string[]> = (() => {
  const table = new Map<string, Set<string>>();
  for (const group of GROUPS) {
    const terms = group.map((word) => (/^[a-z]+$/.test(word) ? stem(word) : word));
    for (const term of terms) {
      const set = table.get(term) ?? new Set<string>();
      for (const other of terms) if (other !== term) set.add(other);
      table.set(term, set);
    }
  }
  return new Map([...table].map(([term, set]) => [term, [...set].sort()]));
})();

/** The synonyms of a (stemmed) term, sorted; none for a term the table does not know. */
export function synonymsOf(term: string): readonly string[] {
  return TABLE.get(term) ?? [];
}
