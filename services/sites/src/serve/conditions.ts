// Adaptive-content conditions (`visitor.claims.beta === true && !visitor.claims.internal`) evaluated
// against a visitor's claims by a small parser of our own: no eval, no Function, nothing but the
// grammar below. A condition that does not parse is false, so the item it guards stays hidden.
//
//   or      := and ("||" and)*
//   and     := unary ("&&" unary)*
//   unary   := "!" unary | compare
//   compare := value (("===" | "!==" | "==" | "!=") value)?
//   value   := "(" or ")" | true | false | null | number | 'string' | "string" | path
//   path    := "visitor" ("." name | "[" string "]")+    (only under visitor.claims)

export type Claims = Record<string, unknown>;

type Token =
  | { kind: "op"; value: string }
  | { kind: "name"; value: string }
  | { kind: "literal"; value: string | number | boolean | null };

const MAX_LENGTH = 1024;
const MAX_DEPTH = 32;
const OPERATORS = ["===", "!==", "==", "!=", "&&", "||", "!", "(", ")", ".", "[", "]"];

class ConditionSyntaxError extends Error {}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const op = OPERATORS.find((candidate) => source.startsWith(candidate, i));
    if (op) {
      tokens.push({ kind: "op", value: op });
      i += op.length;
      continue;
    }
    if (ch === "'" || ch === '"') {
      let value = "";
      let j = i + 1;
      for (; j < source.length && source[j] !== ch; j++) {
        if (source[j] === "\\") {
          j++;
          if (j >= source.length) break;
        }
        value += source[j];
      }
      if (j >= source.length) throw new ConditionSyntaxError("unterminated string");
      tokens.push({ kind: "literal", value });
      i = j + 1;
      continue;
    }
    const number = /^-?\d+(\.\d+)?/.exec(source.slice(i));
    if (number) {
      tokens.push({ kind: "literal", value: Number(number[0]) });
      i += number[0].length;
      continue;
    }
    const name = /^[A-Za-z_$][\w$]*/.exec(source.slice(i));
    if (name) {
      const word = name[0];
      if (word === "true" || word === "false") tokens.push({ kind: "literal", value: word === "true" });
      else if (word === "null") tokens.push({ kind: "literal", value: null });
      else tokens.push({ kind: "name", value: word });
      i += word.length;
      continue;
    }
    throw new ConditionSyntaxError(`unexpected character ${JSON.stringify(ch)}`);
  }
  return tokens;
}

/** A recursive-descent evaluator over the tokens; a claim that is not there reads as undefined. */
class Evaluator {
  private at = 0;
  private depth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly claims: Claims,
  ) {}

  run(): boolean {
    const value = this.or();
    if (this.at !== this.tokens.length) throw new ConditionSyntaxError("trailing tokens");
    return truthy(value);
  }

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  private takeOp(value: string): boolean {
    const token = this.peek();
    if (token?.kind === "op" && token.value === value) {
      this.at++;
      return true;
    }
    return false;
  }

  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new ConditionSyntaxError("too deeply nested");
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private or(): unknown {
    let value = this.and();
    while (this.takeOp("||")) {
      const right = this.and();
      value = truthy(value) || truthy(right);
    }
    return value;
  }

  private and(): unknown {
    let value = this.unary();
    while (this.takeOp("&&")) {
      const right = this.unary();
      value = truthy(value) && truthy(right);
    }
    return value;
  }

  private unary(): unknown {
    if (this.takeOp("!")) return this.nested(() => !truthy(this.unary()));
    return this.compare();
  }

  private compare(): unknown {
    const left = this.value();
    for (const op of ["===", "!==", "==", "!="]) {
      if (this.takeOp(op)) {
        const right = this.value();
        // Loose and strict equality mean the same here: claims are JSON values, compared strictly.
        return op.startsWith("!") ? left !== right : left === right;
      }
    }
    return left;
  }

  private value(): unknown {
    const token = this.peek();
    if (!token) throw new ConditionSyntaxError("unexpected end");
    if (token.kind === "op" && token.value === "(") {
      this.at++;
      const inner = this.nested(() => this.or());
      if (!this.takeOp(")")) throw new ConditionSyntaxError("missing )");
      return inner;
    }
    this.at++;
    if (token.kind === "literal") return token.value;
    if (token.kind === "name" && token.value === "visitor") return this.path();
    throw new ConditionSyntaxError(`unexpected ${token.value}`);
  }

  /** `visitor.claims.a.b` or `visitor.claims["a"]`: only own properties of plain JSON objects are read. */
  private path(): unknown {
    const names: string[] = [];
    for (;;) {
      if (this.takeOp(".")) {
        const token = this.peek();
        if (token?.kind !== "name") throw new ConditionSyntaxError("expected a name after .");
        names.push(token.value);
        this.at++;
      } else if (this.takeOp("[")) {
        const token = this.peek();
        if (token?.kind !== "literal" || typeof token.value !== "string") throw new ConditionSyntaxError("expected a string in []");
        this.at++;
        if (!this.takeOp("]")) throw new ConditionSyntaxError("missing ]");
        names.push(token.value);
      } else break;
    }
    if (names[0] !== "claims" || names.length < 2) throw new ConditionSyntaxError("only visitor.claims.* can be read");
    let current: unknown = this.claims;
    for (const name of names.slice(1)) {
      if (current === null || typeof current !== "object" || Array.isArray(current) || !Object.prototype.hasOwnProperty.call(current, name)) return undefined;
      current = (current as Record<string, unknown>)[name];
    }
    return current;
  }
}

function truthy(value: unknown): boolean {
  return value !== false && value !== null && value !== undefined && value !== 0 && value !== "" && !Number.isNaN(value);
}

/** Whether a condition holds for the visitor's claims; false when it does not parse. An absent condition holds. */
export function conditionHolds(condition: string | undefined, claims: Claims): boolean {
  if (condition === undefined) return true;
  if (condition.length > MAX_LENGTH) return false;
  try {
    return new Evaluator(tokenize(condition), claims).run();
  } catch (err) {
    if (err instanceof ConditionSyntaxError) return false;
    throw err;
  }
}

/** Whether a condition parses at all (for tests and for callers that want to report it). */
export function conditionParses(condition: string): boolean {
  try {
    new Evaluator(tokenize(condition), {}).run();
    return true;
  } catch (err) {
    if (err instanceof ConditionSyntaxError) return false;
    throw err;
  }
}
