/**
 * Port of text/template/parse/parse.go: a recursive-descent parser over the token array.
 * Go keeps a three-token look-ahead buffer; with the whole stream in an array, "backing
 * up" is simply moving the index back, which restores exactly the tokens Go would push back.
 */
import { N, nodeString } from './ast.js';
import type { ArgNode, BranchNode, CommandNode, ItemNode, KeywordNode, ListNode, PipeNode, TemplateNode, VariableNode } from './ast.js';
import { lex } from './lexer.js';
import { parseNumberLiteral, unquoteString } from './literals.js';
import { TokenCursor } from './token-cursor.js';
import { Tok } from './tokens.js';
import type { Token } from './tokens.js';
import { quoteString, trimSpace } from './unicode.js';

/** Go allows 10000 nested parentheses, 1000 on wasm; JavaScript stacks are closer to the latter. */
const MAX_STACK_DEPTH = 1000;

export interface ParseResult {
  /** Every template defined by the source, including the top level under its own name. */
  readonly trees: Map<string, ListNode>;
  /** How many comments the source has (they leave no trace in the trees). */
  readonly comments: number;
}

/** parse.IsEmptyTree: only whitespace text (and comments, which we drop) counts as empty. */
function isEmptyTree(list: ListNode): boolean {
  return list.nodes.every((n) => n.kind === N.Text && trimSpace(n.text) === '');
}

const OPERAND_START = new Set([
  Tok.Bool,
  Tok.CharConstant,
  Tok.Complex,
  Tok.Dot,
  Tok.Field,
  Tok.Identifier,
  Tok.Number,
  Tok.Nil,
  Tok.RawString,
  Tok.String,
  Tok.Variable,
  Tok.LeftParen,
]);

class Parser extends TokenCursor {
  readonly comments: number;
  readonly trees = new Map<string, ListNode>();
  // Per-tree state; {{define}} and {{block}} bodies start afresh.
  private vars: string[] = ['$'];
  private rangeDepth = 0;
  private stackDepth = 0;

  constructor(
    source: string,
    name: string,
    private readonly hasFunction: (name: string) => boolean,
  ) {
    const scanned = lex(source, { breakOK: !hasFunction('break'), continueOK: !hasFunction('continue') });
    super(source, name, scanned.tokens);
    this.comments = scanned.comments;
  }

  /** Runs `body` as the parse of a new tree, as Go does for {{define}} and {{block}}. */
  private inNewTree<T>(body: () => T): T {
    const saved = [this.vars, this.rangeDepth, this.actionLine, this.stackDepth] as const;
    this.vars = ['$'];
    this.rangeDepth = this.actionLine = this.stackDepth = 0;
    try {
      return body();
    } finally {
      [this.vars, this.rangeDepth, this.actionLine, this.stackDepth] = saved;
    }
  }

  private add(name: string, root: ListNode): void {
    const existing = this.trees.get(name);
    if (existing === undefined || isEmptyTree(existing)) this.trees.set(name, root);
    else if (!isEmptyTree(root)) this.errorf(`template: multiple definition of template ${quoteString(name)}`);
  }

  /** The top level: like itemList, but also accepts {{define}} and runs to EOF. */
  parse(): void {
    const root: ListNode = { kind: N.List, pos: this.peek().pos, nodes: [] };
    while (this.peek().type !== Tok.EOF) {
      if (this.peek().type === Tok.LeftDelim) {
        const delim = this.i;
        this.next();
        if (this.nextNonSpace().type === Tok.Define) {
          this.inNewTree(() => this.parseDefinition());
          continue;
        }
        this.i = delim;
      }
      const n = this.textOrAction();
      if (n.kind === N.End || n.kind === N.Else) this.errorf(`unexpected ${nodeString(n)}`);
      root.nodes.push(n);
    }
    this.add(this.name, root);
  }

  private parseDefinition(): void {
    const context = 'define clause';
    const nameToken = this.nextNonSpace();
    if (nameToken.type !== Tok.String && nameToken.type !== Tok.RawString) this.unexpected(nameToken, context);
    const name = this.literal(() => unquoteString(nameToken.val));
    this.expect(Tok.RightDelim, context);
    const [root, end] = this.itemList();
    if (end.kind !== N.End) this.errorf(`unexpected ${nodeString(end)} in ${context}`);
    this.add(name, root);
  }

  /** textOrAction* up to {{end}} or {{else}}, which is returned separately. */
  private itemList(): [ListNode, KeywordNode] {
    const list: ListNode = { kind: N.List, pos: this.peekNonSpace().pos, nodes: [] };
    while (this.peekNonSpace().type !== Tok.EOF) {
      const n = this.textOrAction();
      if (n.kind === N.End || n.kind === N.Else) return [list, n];
      list.nodes.push(n);
    }
    this.errorf('unexpected EOF');
  }

  private textOrAction(): ItemNode {
    const t = this.nextNonSpace();
    if (t.type === Tok.Text) return { kind: N.Text, pos: t.pos, text: t.val, bytes: Buffer.byteLength(t.val, 'utf8') };
    if (t.type !== Tok.LeftDelim) this.unexpected(t, 'input');
    this.actionLine = this.lineOf(t.pos);
    try {
      return this.action();
    } finally {
      this.actionLine = 0;
    }
  }

  private action(): ItemNode {
    const t = this.nextNonSpace();
    switch (t.type) {
      case Tok.Block:
        return this.blockControl();
      case Tok.Break:
      case Tok.Continue:
        return this.loopControl(t);
      case Tok.Else:
        return this.elseControl();
      case Tok.End:
        return { kind: N.End, pos: this.expect(Tok.RightDelim, 'end').pos };
      case Tok.If:
        return this.branch(N.If, 'if');
      case Tok.Range:
        return this.branch(N.Range, 'range');
      case Tok.Template:
        return this.templateControl();
      case Tok.With:
        return this.branch(N.With, 'with');
    }
    this.backup();
    const pos = this.peek().pos;
    // Variables declared here persist until the enclosing {{end}}.
    return { kind: N.Action, pos, pipe: this.pipeline('command', Tok.RightDelim) };
  }

  private loopControl(keyword: Token): KeywordNode {
    const name = keyword.type === Tok.Break ? 'break' : 'continue';
    const t = this.nextNonSpace();
    if (t.type !== Tok.RightDelim) this.unexpected(t, `{{${name}}}`);
    if (this.rangeDepth === 0) this.errorf(`{{${name}}} outside {{range}}`);
    return { kind: keyword.type === Tok.Break ? N.Break : N.Continue, pos: keyword.pos };
  }

  private elseControl(): KeywordNode {
    // "{{else if ...}}" and "{{else with ...}}" leave the keyword for parseControl.
    const peek = this.peekNonSpace();
    if (peek.type === Tok.If || peek.type === Tok.With) return { kind: N.Else, pos: peek.pos };
    return { kind: N.Else, pos: this.expect(Tok.RightDelim, 'else').pos };
  }

  /** if, range and with: pipeline, body, optional else, end. */
  private branch(kind: BranchNode['kind'], context: 'if' | 'range' | 'with'): BranchNode {
    const varsLength = this.vars.length;
    const pipe = this.pipeline(context, Tok.RightDelim);
    if (kind === N.Range) this.rangeDepth++;
    const [list, next] = this.itemList();
    if (kind === N.Range) this.rangeDepth--;
    let elseList: ListNode | null = null;
    if (next.kind === N.Else) {
      // {{if a}}x{{else if b}}y{{end}} is {{if a}}x{{else}}{{if b}}y{{end}}{{end}}.
      const chained = kind === N.If ? Tok.If : kind === N.With ? Tok.With : undefined;
      if (chained !== undefined && this.peek().type === chained) {
        this.next();
        elseList = { kind: N.List, pos: next.pos, nodes: [this.branch(kind, context)] };
      } else {
        const [list2, end] = this.itemList();
        if (end.kind !== N.End) this.errorf(`expected end; found ${nodeString(end)}`);
        elseList = list2;
      }
    }
    this.vars.length = varsLength;
    return { kind, pos: pipe.pos, pipe, list, elseList };
  }

  private blockControl(): TemplateNode {
    const context = 'block clause';
    const t = this.nextNonSpace();
    const name = this.templateName(t, context);
    const pipe = this.pipeline(context, Tok.RightDelim);
    // Go reports a bad block ending through the enclosing tree, which last saw the '}}' above.
    const enclosingLatest = this.latest;
    this.inNewTree(() => {
      const [root, end] = this.itemList();
      if (end.kind !== N.End) {
        this.latest = enclosingLatest;
        this.errorf(`unexpected ${nodeString(end)} in ${context}`);
      }
      this.add(name, root);
    });
    return { kind: N.Template, pos: t.pos, name, pipe };
  }

  private templateControl(): TemplateNode {
    const context = 'template clause';
    const t = this.nextNonSpace();
    const name = this.templateName(t, context);
    let pipe: PipeNode | null = null;
    if (this.nextNonSpace().type !== Tok.RightDelim) {
      this.backup();
      pipe = this.pipeline(context, Tok.RightDelim);
    }
    return { kind: N.Template, pos: t.pos, name, pipe };
  }

  private templateName(t: Token, context: string): string {
    if (t.type !== Tok.String && t.type !== Tok.RawString) this.unexpected(t, context);
    return this.literal(() => unquoteString(t.val));
  }

  /** declarations? command ('|' command)* */
  private pipeline(context: string, end: Tok): PipeNode {
    const pipe: PipeNode = { kind: N.Pipe, pos: this.peekNonSpace().pos, isAssign: false, decl: [], cmds: [] };
    for (;;) {
      const v = this.peekNonSpace();
      if (v.type !== Tok.Variable) break;
      const at = this.i;
      this.next();
      const next = this.peekNonSpace();
      if (next.type === Tok.Assign || next.type === Tok.Declare) {
        pipe.isAssign = next.type === Tok.Assign;
        this.nextNonSpace();
        pipe.decl.push(this.variable(v.pos, v.val, []));
        this.vars.push(v.val);
      } else if (next.type === Tok.Char && next.val === ',') {
        this.nextNonSpace();
        pipe.decl.push(this.variable(v.pos, v.val, []));
        this.vars.push(v.val);
        if (context === 'range' && pipe.decl.length < 2) {
          const after = this.peekNonSpace().type;
          if (after === Tok.Variable || after === Tok.RightDelim || after === Tok.RightParen) continue;
          this.errorf('range can only initialize variables');
        }
        this.errorf(`too many declarations in ${context}`);
      } else {
        this.i = at; // "$x" is an operand, not a declaration
      }
      break;
    }
    for (;;) {
      const t = this.nextNonSpace();
      if (t.type === end) {
        this.checkPipeline(pipe, context);
        return pipe;
      }
      if (!OPERAND_START.has(t.type)) this.unexpected(t, context);
      this.backup();
      pipe.cmds.push(this.command());
    }
  }

  private checkPipeline(pipe: PipeNode, context: string): void {
    if (pipe.cmds.length === 0) this.errorf(`missing value for ${context}`);
    // Only the first command of a pipeline can start with a non-executable operand.
    for (let i = 1; i < pipe.cmds.length; i++) {
      const k = pipe.cmds[i]!.args[0]!.kind;
      if (k === N.Bool || k === N.Dot || k === N.Nil || k === N.Number || k === N.String) {
        this.errorf(`non executable command in pipeline stage ${i + 1}`);
      }
    }
  }

  /** Space-separated operands up to '|', '}}' or ')'; consumes the '|'. */
  private command(): CommandNode {
    const cmd: CommandNode = { kind: N.Command, pos: this.peekNonSpace().pos, args: [] };
    for (;;) {
      this.peekNonSpace();
      const operand = this.operand();
      if (operand !== null) cmd.args.push(operand);
      const t = this.next();
      if (t.type === Tok.Space) continue;
      if (t.type === Tok.RightDelim || t.type === Tok.RightParen) this.backup();
      else if (t.type !== Tok.Pipe) this.unexpected(t, 'operand');
      break;
    }
    if (cmd.args.length === 0) this.errorf('empty command');
    return cmd;
  }

  /** term .Field* */
  private operand(): ArgNode | null {
    const node = this.term();
    if (node === null || this.peek().type !== Tok.Field) return node;
    const pos = this.peek().pos;
    const fields: string[] = [];
    while (this.peek().type === Tok.Field) fields.push(this.next().val.slice(1));
    switch (node.kind) {
      case N.Field:
        return { kind: N.Field, pos, idents: [...node.idents, ...fields] };
      case N.Variable:
        return this.variable(pos, node.name, [...node.fields, ...fields]);
      case N.Bool:
      case N.String:
      case N.Number:
      case N.Nil:
      case N.Dot:
        this.errorf(`unexpected . after term ${quoteString(nodeString(node))}`);
    }
    return { kind: N.Chain, pos, node, fields };
  }

  private term(): ArgNode | null {
    const t = this.nextNonSpace();
    switch (t.type) {
      case Tok.Identifier:
        if (!this.hasFunction(t.val)) this.errorf(`function ${quoteString(t.val)} not defined`);
        return { kind: N.Identifier, pos: t.pos, name: t.val };
      case Tok.Dot:
        return { kind: N.Dot, pos: t.pos };
      case Tok.Nil:
        return { kind: N.Nil, pos: t.pos };
      case Tok.Variable:
        if (!this.vars.includes(t.val)) this.errorf(`undefined variable ${quoteString(t.val)}`);
        return this.variable(t.pos, t.val, []);
      case Tok.Field:
        return { kind: N.Field, pos: t.pos, idents: [t.val.slice(1)] };
      case Tok.Bool:
        return { kind: N.Bool, pos: t.pos, value: t.val === 'true' };
      case Tok.CharConstant:
      case Tok.Complex:
      case Tok.Number: {
        const n = this.literal(() => parseNumberLiteral(t.val, t.type === Tok.CharConstant, t.type === Tok.Complex));
        return { kind: N.Number, pos: t.pos, text: t.val, value: n.value, overflowsInt: n.overflowsInt };
      }
      case Tok.LeftParen: {
        if (this.stackDepth >= MAX_STACK_DEPTH) this.errorf('max expression depth exceeded');
        this.stackDepth++;
        const pipe = this.pipeline('parenthesized pipeline', Tok.RightParen);
        this.stackDepth--;
        return pipe;
      }
      case Tok.String:
      case Tok.RawString:
        return { kind: N.String, pos: t.pos, quoted: t.val, text: this.literal(() => unquoteString(t.val)) };
    }
    this.backup();
    return null;
  }

  private variable(pos: number, name: string, fields: string[]): VariableNode {
    return { kind: N.Variable, pos, name, fields };
  }
}

/**
 * Parses `source` (named `name` in messages). `hasFunction` says which identifiers are
 * callable, since Go rejects unknown functions at parse time.
 */
export function parseTemplates(source: string, name: string, hasFunction: (name: string) => boolean): ParseResult {
  const parser = new Parser(source, name, hasFunction);
  parser.parse();
  return { trees: parser.trees, comments: parser.comments };
}
