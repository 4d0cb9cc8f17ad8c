/**
 * Parse tree, mirroring text/template/parse/node.go. Positions are UTF-16 offsets into the
 * source. nodeString() reproduces Go's Node.String(), which appears in error messages
 * (`executing "x" at <.input.count>: ...`), so it must print exactly what Go prints.
 */
import { quoteString } from './unicode.js';

export const enum N {
  Text,
  Action,
  If,
  Range,
  With,
  Template,
  Break,
  Continue,
  List,
  Pipe,
  Command,
  Field,
  Variable,
  Chain,
  Identifier,
  Dot,
  Nil,
  Bool,
  Number,
  String,
  End,
  Else,
}

export interface ListNode {
  readonly kind: N.List;
  readonly pos: number;
  readonly nodes: ItemNode[];
}

export interface TextNode {
  readonly kind: N.Text;
  readonly pos: number;
  readonly text: string;
  /** UTF-8 length of text, counted once at parse time for the output budget. */
  readonly bytes: number;
}

export interface ActionNode {
  readonly kind: N.Action;
  readonly pos: number;
  readonly pipe: PipeNode;
}

/** if, range and with share one shape, as Go's BranchNode. */
export interface BranchNode {
  readonly kind: N.If | N.Range | N.With;
  readonly pos: number;
  readonly pipe: PipeNode;
  readonly list: ListNode;
  readonly elseList: ListNode | null;
}

export interface TemplateNode {
  readonly kind: N.Template;
  readonly pos: number;
  readonly name: string;
  readonly pipe: PipeNode | null;
}

export interface KeywordNode {
  readonly kind: N.Break | N.Continue | N.End | N.Else;
  readonly pos: number;
}

export interface PipeNode {
  readonly kind: N.Pipe;
  readonly pos: number;
  isAssign: boolean;
  readonly decl: VariableNode[];
  readonly cmds: CommandNode[];
}

export interface CommandNode {
  readonly kind: N.Command;
  readonly pos: number;
  readonly args: ArgNode[];
}

export interface FieldNode {
  readonly kind: N.Field;
  readonly pos: number;
  readonly idents: readonly string[];
}

export interface VariableNode {
  readonly kind: N.Variable;
  readonly pos: number;
  /** The variable name (with its `$`). */
  readonly name: string;
  /** Field names chained after the variable, as in `$x.a.b`. */
  readonly fields: readonly string[];
}

export interface ChainNode {
  readonly kind: N.Chain;
  readonly pos: number;
  readonly node: ArgNode;
  readonly fields: readonly string[];
}

export interface IdentifierNode {
  readonly kind: N.Identifier;
  readonly pos: number;
  readonly name: string;
}

export interface DotNode {
  readonly kind: N.Dot;
  readonly pos: number;
}

export interface NilNode {
  readonly kind: N.Nil;
  readonly pos: number;
}

export interface BoolNode {
  readonly kind: N.Bool;
  readonly pos: number;
  readonly value: boolean;
}

export interface NumberNode {
  readonly kind: N.Number;
  readonly pos: number;
  readonly text: string;
  readonly value: number;
  readonly overflowsInt: boolean;
}

export interface StringNode {
  readonly kind: N.String;
  readonly pos: number;
  /** Original text with quotes, for messages. */
  readonly quoted: string;
  readonly text: string;
}

/** Nodes that can appear in a list (the body of a template or control structure). */
export type ItemNode = TextNode | ActionNode | BranchNode | TemplateNode | KeywordNode;

/** Operands of a command. */
export type ArgNode = FieldNode | VariableNode | ChainNode | IdentifierNode | DotNode | NilNode | BoolNode | NumberNode | StringNode | PipeNode;

export type AnyNode = ItemNode | ListNode | ArgNode | CommandNode;

function pipeString(p: PipeNode): string {
  let s = '';
  if (p.decl.length > 0) {
    s = p.decl.map(nodeString).join(', ') + (p.isAssign ? ' = ' : ' := ');
  }
  return s + p.cmds.map(nodeString).join(' | ');
}

function argString(a: ArgNode): string {
  return a.kind === N.Pipe ? `(${pipeString(a)})` : nodeString(a);
}

const BRANCH_NAMES = ['', '', 'if', 'range', 'with'];

/** Go's Node.String(). */
export function nodeString(n: AnyNode): string {
  switch (n.kind) {
    case N.Text:
      return n.text;
    case N.Action:
      return `{{${pipeString(n.pipe)}}}`;
    case N.If:
    case N.Range:
    case N.With: {
      const head = `{{${BRANCH_NAMES[n.kind]} ${pipeString(n.pipe)}}}${nodeString(n.list)}`;
      return head + (n.elseList ? `{{else}}${nodeString(n.elseList)}` : '') + '{{end}}';
    }
    case N.Template:
      return `{{template ${quoteString(n.name)}${n.pipe ? ' ' + pipeString(n.pipe) : ''}}}`;
    case N.Break:
      return '{{break}}';
    case N.Continue:
      return '{{continue}}';
    case N.End:
      return '{{end}}';
    case N.Else:
      return '{{else}}';
    case N.List:
      return n.nodes.map(nodeString).join('');
    case N.Pipe:
      return pipeString(n);
    case N.Command:
      return n.args.map(argString).join(' ');
    case N.Field:
      return n.idents.map((id) => '.' + id).join('');
    case N.Variable:
      return [n.name, ...n.fields].join('.');
    case N.Chain:
      return argString(n.node) + n.fields.map((f) => '.' + f).join('');
    case N.Identifier:
      return n.name;
    case N.Dot:
      return '.';
    case N.Nil:
      return 'nil';
    case N.Bool:
      return n.value ? 'true' : 'false';
    case N.Number:
      return n.text;
    case N.String:
      return n.quoted;
  }
}
