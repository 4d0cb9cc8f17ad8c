/**
 * Port of text/template/parse/lex.go. Go's lexer is a goroutine feeding the parser; here
 * the whole input is scanned up front into an array. That is equivalent because the lexer
 * never depends on parser state, and a lexical error becomes the last token, so it is only
 * reported when the parser reaches it (exactly when Go would report it).
 */
import { KEYWORDS, Tok } from './tokens.js';
import type { Token } from './tokens.js';
import { describeRune, isAlphaNumeric, isPrint, quoteString } from './unicode.js';

const LEFT = '{{';
const RIGHT = '}}';
const EOF = -1;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

function hasLeftTrimMarker(s: string, at: number): boolean {
  return s.charCodeAt(at) === 0x2d && isSpace(s.charCodeAt(at + 1));
}

function hasRightTrimMarker(s: string, at: number): boolean {
  return isSpace(s.charCodeAt(at)) && s.charCodeAt(at + 1) === 0x2d;
}

export interface LexOptions {
  /** `break`/`continue` are keywords unless a function of that name exists. */
  readonly breakOK: boolean;
  readonly continueOK: boolean;
}

type State = ((l: Lexer) => State) | null;

class Lexer {
  readonly tokens: Token[] = [];
  comments = 0;
  pos = 0;
  start = 0;
  parenDepth = 0;

  constructor(
    readonly input: string,
    readonly options: LexOptions,
  ) {}

  next(): number {
    if (this.pos >= this.input.length) {
      this.pos = this.input.length + 1; // so that backup() after EOF is a no-op
      return EOF;
    }
    const cp = this.input.codePointAt(this.pos)!;
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }

  peek(): number {
    if (this.pos >= this.input.length) return EOF;
    return this.input.codePointAt(this.pos)!;
  }

  backup(): void {
    if (this.pos > this.input.length) {
      this.pos = this.input.length;
      return;
    }
    if (this.pos === 0) return;
    const lo = this.input.charCodeAt(this.pos - 1);
    this.pos -= lo >= 0xdc00 && lo <= 0xdfff && this.pos >= 2 && this.input.codePointAt(this.pos - 2)! > 0xffff ? 2 : 1;
  }

  emit(type: Tok): void {
    this.tokens.push({ type, pos: this.start, val: this.input.slice(this.start, this.pos) });
    this.start = this.pos;
  }

  ignore(): void {
    this.start = this.pos;
  }

  accept(valid: string): boolean {
    const c = this.next();
    if (c !== EOF && valid.includes(String.fromCodePoint(c))) return true;
    this.backup();
    return false;
  }

  acceptRun(valid: string): void {
    for (;;) {
      const c = this.next();
      if (c === EOF || !valid.includes(String.fromCodePoint(c))) break;
    }
    this.backup();
  }

  errorf(message: string): State {
    this.tokens.push({ type: Tok.Error, pos: this.start, val: message });
    return null;
  }

  atRightDelim(): { delim: boolean; trim: boolean } {
    if (hasRightTrimMarker(this.input, this.pos) && this.input.startsWith(RIGHT, this.pos + 2)) return { delim: true, trim: true };
    if (this.input.startsWith(RIGHT, this.pos)) return { delim: true, trim: false };
    return { delim: false, trim: false };
  }

  /** Valid characters to follow an identifier; also rejects `$x+2` in case arithmetic comes one day. */
  atTerminator(): boolean {
    const r = this.peek();
    if (isSpace(r)) return true;
    switch (r) {
      case EOF:
      case 0x2e:
      case 0x2c:
      case 0x7c:
      case 0x3a:
      case 0x29:
      case 0x28:
        return true;
    }
    return this.input.startsWith(RIGHT, this.pos);
  }
}

function leftTrimLength(s: string, from: number): number {
  let i = from;
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i - from;
}

function lexText(l: Lexer): State {
  const x = l.input.indexOf(LEFT, l.pos);
  if (x >= 0) {
    l.pos = x;
    let trimmed = x;
    if (hasLeftTrimMarker(l.input, x + LEFT.length)) {
      while (trimmed > l.start && isSpace(l.input.charCodeAt(trimmed - 1))) trimmed--;
    }
    if (trimmed > l.start) {
      l.pos = trimmed;
      l.emit(Tok.Text);
    }
    l.pos = x;
    l.ignore();
    return lexLeftDelim;
  }
  l.pos = l.input.length;
  if (l.pos > l.start) l.emit(Tok.Text);
  l.emit(Tok.EOF);
  return null;
}

function lexLeftDelim(l: Lexer): State {
  l.pos += LEFT.length;
  const afterMarker = hasLeftTrimMarker(l.input, l.pos) ? 2 : 0;
  if (l.input.startsWith('/*', l.pos + afterMarker)) {
    l.pos += afterMarker;
    l.ignore();
    return lexComment;
  }
  l.emit(Tok.LeftDelim);
  l.pos += afterMarker;
  l.ignore();
  l.parenDepth = 0;
  return lexInsideAction;
}

function lexComment(l: Lexer): State {
  l.pos += 2;
  const i = l.input.indexOf('*/', l.pos);
  if (i < 0) return l.errorf('unclosed comment');
  l.pos = i + 2;
  l.comments++;
  const { delim, trim } = l.atRightDelim();
  if (!delim) return l.errorf('comment ends before closing delimiter');
  if (trim) l.pos += 2;
  l.pos += RIGHT.length;
  if (trim) l.pos += leftTrimLength(l.input, l.pos);
  l.ignore();
  return lexText;
}

function lexRightDelim(l: Lexer): State {
  const trim = hasRightTrimMarker(l.input, l.pos);
  if (trim) {
    l.pos += 2;
    l.ignore();
  }
  l.pos += RIGHT.length;
  l.emit(Tok.RightDelim);
  if (trim) {
    l.pos += leftTrimLength(l.input, l.pos);
    l.ignore();
  }
  return lexText;
}

function lexInsideAction(l: Lexer): State {
  if (l.atRightDelim().delim) {
    if (l.parenDepth === 0) return lexRightDelim;
    return l.errorf('unclosed left paren');
  }
  const r = l.next();
  if (r === EOF) return l.errorf('unclosed action');
  if (isSpace(r)) {
    l.backup(); // put the space back in case we have " -}}"
    return lexSpace;
  }
  switch (r) {
    case 0x3d: // '='
      l.emit(Tok.Assign);
      return lexInsideAction;
    case 0x3a: // ':'
      if (l.next() !== 0x3d) return l.errorf('expected :=');
      l.emit(Tok.Declare);
      return lexInsideAction;
    case 0x7c:
      l.emit(Tok.Pipe);
      return lexInsideAction;
    case 0x22:
      return lexQuote;
    case 0x60:
      return lexRawQuote;
    case 0x24:
      return lexVariable;
    case 0x27:
      return lexChar;
    case 0x28:
      l.emit(Tok.LeftParen);
      l.parenDepth++;
      return lexInsideAction;
    case 0x29:
      l.parenDepth--;
      if (l.parenDepth < 0) return l.errorf('unexpected right paren');
      l.emit(Tok.RightParen);
      return lexInsideAction;
    case 0x2e: {
      // special look-ahead for ".field" so we don't break backup().
      const c = l.input.charCodeAt(l.pos);
      if (l.pos < l.input.length && (c < 0x30 || c > 0x39)) return lexFieldOrVariable(l, Tok.Field);
      l.backup();
      return lexNumber;
    }
  }
  if (r === 0x2b || r === 0x2d || (r >= 0x30 && r <= 0x39)) {
    l.backup();
    return lexNumber;
  }
  if (isAlphaNumeric(r)) {
    l.backup();
    return lexIdentifier;
  }
  if (r < 0x80 && isPrint(r)) {
    l.emit(Tok.Char);
    return lexInsideAction;
  }
  return l.errorf(`unrecognized character in action: ${describeRune(r)}`);
}

function lexSpace(l: Lexer): State {
  let spaces = 0;
  while (isSpace(l.peek())) {
    l.next();
    spaces++;
  }
  // A trim-marked closing delimiter starts with a space: leave that one for lexRightDelim.
  if (hasRightTrimMarker(l.input, l.pos - 1) && l.input.startsWith(RIGHT, l.pos + 1)) {
    l.backup();
    if (spaces === 1) return lexRightDelim;
  }
  l.emit(Tok.Space);
  return lexInsideAction;
}

function lexIdentifier(l: Lexer): State {
  for (;;) {
    const r = l.next();
    if (r !== EOF && isAlphaNumeric(r)) continue;
    l.backup();
    if (!l.atTerminator()) return l.errorf(`bad character ${describeRune(r)}`);
    const word = l.input.slice(l.start, l.pos);
    const key = KEYWORDS.get(word);
    if (key !== undefined && key > Tok.Keyword) {
      if ((key === Tok.Break && !l.options.breakOK) || (key === Tok.Continue && !l.options.continueOK)) l.emit(Tok.Identifier);
      else l.emit(key);
    } else if (word === 'true' || word === 'false') {
      l.emit(Tok.Bool);
    } else {
      l.emit(Tok.Identifier);
    }
    return lexInsideAction;
  }
}

function lexVariable(l: Lexer): State {
  if (l.atTerminator()) {
    l.emit(Tok.Variable); // just "$"
    return lexInsideAction;
  }
  return lexFieldOrVariable(l, Tok.Variable);
}

/** The leading '.' or '$' has been scanned. */
function lexFieldOrVariable(l: Lexer, type: Tok.Field | Tok.Variable): State {
  if (l.atTerminator()) {
    l.emit(type === Tok.Variable ? Tok.Variable : Tok.Dot);
    return lexInsideAction;
  }
  let r: number;
  for (;;) {
    r = l.next();
    if (r === EOF || !isAlphaNumeric(r)) {
      l.backup();
      break;
    }
  }
  if (!l.atTerminator()) return l.errorf(`bad character ${describeRune(r)}`);
  l.emit(type);
  return lexInsideAction;
}

function lexChar(l: Lexer): State {
  for (;;) {
    let r = l.next();
    if (r === 0x5c) {
      r = l.next();
      if (r !== EOF && r !== 0x0a) continue;
    }
    if (r === EOF || r === 0x0a) return l.errorf('unterminated character constant');
    if (r === 0x27) break;
  }
  l.emit(Tok.CharConstant);
  return lexInsideAction;
}

/**
 * Not a perfect number scanner: it accepts "." and "0x0.2" and "089", but when it is wrong
 * the input is invalid and the number parser notices.
 */
function scanNumber(l: Lexer): boolean {
  l.accept('+-');
  let digits = '0123456789_';
  if (l.accept('0')) {
    if (l.accept('xX')) digits = '0123456789abcdefABCDEF_';
    else if (l.accept('oO')) digits = '01234567_';
    else if (l.accept('bB')) digits = '01_';
  }
  l.acceptRun(digits);
  if (l.accept('.')) l.acceptRun(digits);
  if (digits.length === 11 && l.accept('eE')) {
    l.accept('+-');
    l.acceptRun('0123456789_');
  }
  if (digits.length === 23 && l.accept('pP')) {
    l.accept('+-');
    l.acceptRun('0123456789_');
  }
  l.accept('i');
  const next = l.peek();
  if (next !== EOF && isAlphaNumeric(next)) {
    l.next();
    return false;
  }
  return true;
}

function lexNumber(l: Lexer): State {
  if (!scanNumber(l)) return l.errorf(`bad number syntax: ${quoteString(l.input.slice(l.start, l.pos))}`);
  const sign = l.peek();
  if (sign === 0x2b || sign === 0x2d) {
    // Complex: 1+2i. No spaces, must end in 'i'.
    if (!scanNumber(l) || l.input.charCodeAt(l.pos - 1) !== 0x69) {
      return l.errorf(`bad number syntax: ${quoteString(l.input.slice(l.start, l.pos))}`);
    }
    l.emit(Tok.Complex);
  } else {
    l.emit(Tok.Number);
  }
  return lexInsideAction;
}

function lexQuote(l: Lexer): State {
  for (;;) {
    let r = l.next();
    if (r === 0x5c) {
      r = l.next();
      if (r !== EOF && r !== 0x0a) continue;
    }
    if (r === EOF || r === 0x0a) return l.errorf('unterminated quoted string');
    if (r === 0x22) break;
  }
  l.emit(Tok.String);
  return lexInsideAction;
}

function lexRawQuote(l: Lexer): State {
  const end = l.input.indexOf('`', l.pos);
  if (end < 0) return l.errorf('unterminated raw quoted string');
  l.pos = end + 1;
  l.emit(Tok.RawString);
  return lexInsideAction;
}

/** Scans the whole input. The last token is EOF or Error. Comments produce no tokens. */
export function lex(input: string, options: LexOptions): { tokens: Token[]; comments: number } {
  const l = new Lexer(input, options);
  for (let state: State = lexText; state !== null;) state = state(l);
  return { tokens: l.tokens, comments: l.comments };
}
