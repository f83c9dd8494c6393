"""The messages of the front end's JavaScript: a small lexer that finds ``t("...")``,
``tn("...", "...")`` and ``_("...")`` calls with literal arguments.

Babel's JavaScript lexer loses its place after some regular expression literals (it
took ``/^(\\w+)>(\\w+)(?:\\/(\\d+))?$/`` for a division and never found the calls after
it), so the catalogs silently missed messages. This lexer tells a regular expression
from a division by what comes before the slash, as JavaScript's grammar does: after an
expression (a name, a number, a string, ``)`` or ``]``, or the ``}`` of an object
literal) it divides; anywhere else it starts a regular expression, ``/`` inside a
character class included. It never guesses silently: a string, template or comment left
open means the lexer lost its place, and it raises ``JsSyntaxError`` naming the line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass


class JsSyntaxError(ValueError):
    """The lexer cannot read a JavaScript file (so its messages cannot be trusted)."""


@dataclass(frozen=True)
class Token:
    """One token: its kind ("name", "num", "str", "tpl", "regex", "punct"), text, line.

    For "str" and a "tpl" without substitutions, ``value`` is the string's value.
    """

    kind: str
    text: str
    line: int
    value: str | None = None


# After these words an expression starts, so a slash begins a regular expression.
KEYWORDS_BEFORE_EXPRESSION = frozenset(
    "return typeof instanceof in of new delete void throw case do else yield await".split()
)
# A parenthesis opened after these words ends a statement head: `if (x) /re/.test(y)`.
STATEMENT_HEADS = frozenset({"if", "while", "for", "with"})
# After these tokens a `{` opens a block (whose `}` ends a statement), not an object literal.
BLOCK_BEFORE = frozenset({")", ";", "{", "}", "=>", "else", "do", "try", "finally", None})
PUNCTUATORS = sorted(
    "=> ... === !== **= <<= >>= >>>= &&= ||= ??= == != <= >= && || ?? ?. ++ -- += -= *= /= "
    "%= &= |= ^= ** << >> >>>".split(),
    key=len,
    reverse=True,
)
_NAME = re.compile(r"[A-Za-z_$\u0080-\uffff][\w$\u0080-\uffff]*")
_NUMBER = re.compile(
    r"(?:0[xXoObB][\da-fA-F_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)n?"
)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def _unescape(body: str) -> str:
    def one(m: re.Match[str]) -> str:
        s = m[1]
        if s[0] == "u":
            return chr(int(s[2:-1] if s[1] == "{" else s[1:], 16))
        if s[0] == "x":
            return chr(int(s[1:], 16))
        if s[0] == "\n":
            return ""  # a line continuation
        return _ESCAPES.get(s, s)

    return re.sub(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r?\n|.)", one, body)


class _Lexer:
    def __init__(self, source: str) -> None:
        self.src = source
        self.pos = 0
        self.line = 1
        self.prev: Token | None = None  # the last significant token
        # What each open bracket was: "(" after if/while/for/with is "head", "{" "block"
        # or "object", "${" a template substitution.
        self.stack: list[str] = []
        self.closed: str | None = None  # what the bracket just closed was

    def fail(self, what: str, line: int) -> JsSyntaxError:
        return JsSyntaxError(f"line {line}: {what}")

    def regex_allowed(self) -> bool:
        p = self.prev
        if p is None:
            return True
        if p.kind == "name":
            return p.text in KEYWORDS_BEFORE_EXPRESSION
        if p.kind == "tpl":
            return p.text.endswith("${")  # a substitution starts an expression
        if p.kind in ("num", "str", "regex"):
            return False
        if p.text in (")", "}"):
            return self.closed in ("head", "block")
        return p.text not in ("]", "++", "--")

    def tokens(self) -> Iterator[Token]:
        src = self.src
        while self.pos < len(src):
            c = src[self.pos]
            start_line = self.line
            if c == "\n":
                self.line += 1
                self.pos += 1
            elif c.isspace():
                self.pos += 1
            elif src.startswith("//", self.pos):
                end = src.find("\n", self.pos)
                self.pos = len(src) if end < 0 else end
            elif src.startswith("/*", self.pos):
                end = src.find("*/", self.pos + 2)
                if end < 0:
                    raise self.fail("unterminated comment", start_line)
                self.line += src.count("\n", self.pos, end)
                self.pos = end + 2
            elif c in "'\"":
                yield self.emit(self.string(c))
            elif c == "`" or (c == "}" and self.stack and self.stack[-1] == "${"):
                if c == "}":
                    self.stack.pop()
                yield self.emit(self.template(c == "`"))
            elif c == "/" and self.regex_allowed() and (regex := self.regex()) is not None:
                yield self.emit(regex)
            elif m := _NAME.match(src, self.pos):
                self.pos = m.end()
                yield self.emit(Token("name", m[0], start_line))
            elif m := _NUMBER.match(src, self.pos):
                self.pos = m.end()
                yield self.emit(Token("num", m[0], start_line))
            else:
                yield self.emit(self.punct())
        if "${" in self.stack:
            raise self.fail("unterminated template literal", self.line)

    def emit(self, token: Token) -> Token:
        self.prev = token
        return token

    def punct(self) -> Token:
        src, line = self.src, self.line
        text = next((p for p in PUNCTUATORS if src.startswith(p, self.pos)), src[self.pos])
        self.pos += len(text)
        before = self.prev
        if text == "(":
            head = before is not None and before.kind == "name" and before.text in STATEMENT_HEADS
            self.stack.append("head" if head else "(")
        elif text == "{":
            opener = None if before is None else before.text
            self.stack.append("block" if opener in BLOCK_BEFORE else "object")
        elif text == "[":
            self.stack.append("[")
        elif text in ")]}":
            self.closed = self.stack.pop() if self.stack else None
        return Token("punct", text, line)

    def string(self, quote: str) -> Token:
        src, line = self.src, self.line
        i = self.pos + 1
        while i < len(src) and src[i] != quote:
            if src[i] == "\n":
                raise self.fail("unterminated string", line)
            i += 2 if src[i] == "\\" else 1
        if i >= len(src):
            raise self.fail("unterminated string", line)
        body = src[self.pos + 1 : i]
        self.line += body.count("\n")  # escaped line continuations
        self.pos = i + 1
        return Token("str", src[self.pos - len(body) - 2 : self.pos], line, _unescape(body))

    def template(self, opening: bool) -> Token:
        """A template literal from its backtick, or its rest after a substitution's ``}``."""
        src, line = self.src, self.line
        i = self.pos + 1
        while i < len(src):
            if src[i] == "\\":
                i += 2
            elif src[i] == "`":
                break
            elif src.startswith("${", i):
                break
            else:
                i += 1
        if i >= len(src):
            raise self.fail("unterminated template literal", line)
        start = self.pos
        body = src[start + 1 : i]
        self.line += body.count("\n")
        whole = opening and src[i] == "`"
        if src[i] == "`":
            self.pos = i + 1
        else:
            self.stack.append("${")
            self.pos = i + 2
        # Only a template without substitutions has one value, usable as a message id.
        return Token("tpl", src[start : self.pos], line, _unescape(body) if whole else None)

    def regex(self) -> Token | None:
        """A regular expression literal here, or None when the line holds none."""
        src, line = self.src, self.line
        i = self.pos + 1
        in_class = False
        while i < len(src) and src[i] != "\n":
            c = src[i]
            if c == "\\":
                i += 2
                continue
            if c == "[":
                in_class = True
            elif c == "]":
                in_class = False
            elif c == "/" and not in_class:
                m = _NAME.match(src, i + 1)
                end = m.end() if m else i + 1
                text = src[self.pos : end]
                self.pos = end
                return Token("regex", text, line)
            i += 1
        return None  # a regex never spans lines: this slash divides


def tokenize(source: str) -> list[Token]:
    """The tokens of a JavaScript source (comments and spaces left out)."""
    return list(_Lexer(source).tokens())


def calls(source: str, names: Iterable[str]) -> Iterator[tuple[int, str, tuple[str | None, ...]]]:
    """(line, name, arguments) of each call of one of ``names`` in a JavaScript source.

    An argument is its value when it is a literal string (or a template without
    substitutions), None otherwise (``t(notice)``). ``obj.t("x")`` is not a call of ``t``.
    """
    wanted = set(names)
    tokens = tokenize(source)
    for k, tok in enumerate(tokens):
        if tok.kind != "name" or tok.text not in wanted:
            continue
        if k + 1 >= len(tokens) or tokens[k + 1].text != "(":
            continue
        if k and tokens[k - 1].text in (".", "?."):
            continue
        yield tok.line, tok.text, tuple(_arguments(tokens, k + 2))


def _arguments(tokens: list[Token], k: int) -> Iterator[str | None]:
    """The arguments of a call whose first token is tokens[k]."""
    depth = 0
    current: list[Token] = []
    for tok in tokens[k:]:
        if tok.kind == "punct" and tok.text in ("(", "[", "{"):
            depth += 1
        elif tok.kind == "punct" and tok.text in (")", "]", "}"):
            if depth == 0:
                break
            depth -= 1
        if depth == 0 and tok.kind == "punct" and tok.text == ",":
            yield _literal(current)
            current = []
        else:
            current.append(tok)
    if current:
        yield _literal(current)


def _literal(tokens: list[Token]) -> str | None:
    if len(tokens) == 1 and tokens[0].kind in ("str", "tpl"):
        return tokens[0].value
    return None
