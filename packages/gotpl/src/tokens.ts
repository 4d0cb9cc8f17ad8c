/**
 * Token kinds of the template lexer (text/template/parse's itemType) and the keyword table.
 */

export const enum Tok {
  Error,
  Bool,
  Char, // printable ASCII character; grab bag for comma etc.
  CharConstant,
  Complex,
  Assign,
  Declare,
  EOF,
  Field,
  Identifier,
  LeftDelim,
  LeftParen,
  Number,
  Pipe,
  RawString,
  RightDelim,
  RightParen,
  Space,
  String,
  Text,
  Variable,
  // Keywords appear after all the rest.
  Keyword,
  Block,
  Break,
  Continue,
  Dot,
  Define,
  Else,
  End,
  If,
  Nil,
  Range,
  Template,
  With,
}

export interface Token {
  readonly type: Tok;
  /** Offset in the source (UTF-16 units). */
  readonly pos: number;
  readonly val: string;
}

export const KEYWORDS: ReadonlyMap<string, Tok> = new Map([
  ['.', Tok.Dot],
  ['block', Tok.Block],
  ['break', Tok.Break],
  ['continue', Tok.Continue],
  ['define', Tok.Define],
  ['else', Tok.Else],
  ['end', Tok.End],
  ['if', Tok.If],
  ['range', Tok.Range],
  ['nil', Tok.Nil],
  ['template', Tok.Template],
  ['with', Tok.With],
]);
