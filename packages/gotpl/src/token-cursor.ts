/**
 * A cursor over the token array with parse.Tree's look-ahead and error reporting. Go
 * reports the line of the most recently scanned token, so the cursor remembers how far it
 * has looked ahead; messages also get that token's column.
 */
import { TemplateParseError, locate } from './errors.js';
import { LiteralError } from './literals.js';
import { Tok } from './tokens.js';
import type { Token } from './tokens.js';
import { quoteString, truncateRunes, utf8Length } from './unicode.js';

/** item.String() in Go: how a token is shown in "unexpected ..." messages. */
export function tokenString(t: Token): string {
  if (t.type === Tok.EOF) return 'EOF';
  if (t.type === Tok.Error) return t.val;
  if (t.type > Tok.Keyword) return `<${t.val}>`;
  if (utf8Length(t.val) > 10) return `${quoteString(truncateRunes(t.val, 10))}...`;
  return quoteString(t.val);
}

export class TokenCursor {
  protected i = 0;
  /** Index of the most recently scanned token: Go reports its line. */
  protected latest = 0;
  /** Line of the '{{' that opened the action being parsed, or 0. */
  protected actionLine = 0;

  constructor(
    protected readonly source: string,
    protected readonly name: string,
    private readonly tokens: readonly Token[],
  ) {}

  private at(index: number): Token {
    const k = Math.min(index, this.tokens.length - 1);
    if (k > this.latest) this.latest = k;
    return this.tokens[k]!;
  }

  protected next(): Token {
    return this.at(this.i++);
  }

  protected peek(): Token {
    return this.at(this.i);
  }

  protected backup(): void {
    this.i--;
  }

  protected nextNonSpace(): Token {
    let t: Token;
    do t = this.next();
    while (t.type === Tok.Space);
    return t;
  }

  /** Like Go, this consumes the spaces before the token it returns. */
  protected peekNonSpace(): Token {
    const t = this.nextNonSpace();
    this.backup();
    return t;
  }

  protected lineOf(pos: number): number {
    return locate(this.source, pos).line;
  }

  protected errorf(reason: string): never {
    const { line, column } = locate(this.source, this.tokens[this.latest]!.pos);
    throw new TemplateParseError(this.name, line, column, reason);
  }

  /** Runs a literal conversion, turning strconv's complaint into a parse error. */
  protected literal<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      if (e instanceof LiteralError) this.errorf(e.message);
      throw e;
    }
  }

  protected expect(expected: Tok, context: string): Token {
    const t = this.nextNonSpace();
    if (t.type !== expected) this.unexpected(t, context);
    return t;
  }

  protected unexpected(t: Token, context: string): never {
    if (t.type === Tok.Error) {
      let extra = '';
      if (this.actionLine !== 0 && this.actionLine !== this.lineOf(t.pos)) {
        extra = ` in action started at ${this.name}:${this.actionLine}`;
        if (t.val.endsWith(' action')) extra = extra.slice(' in action'.length); // not "action in action"
      }
      this.errorf(t.val + extra);
    }
    this.errorf(`unexpected ${tokenString(t)} in ${context}`);
  }
}
