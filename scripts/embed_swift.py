"""Writes files into a generated Swift file as raw string literals (used by embed-templates.py,
embed-report-assets.py and embed-assets.py): a binary copied away from its checkout carries them, no resource bundle needed."""
import sys


def raw_literal(name, text, before, after, script="embed"):
    """The lines of one entry: `before`, then `text` as a Swift raw string literal (closed at column 0, so no
    indentation is stripped), then `after`. The literal's last line break is not part of it, so a file's own final
    one stays."""
    if '"""####' in text or "\r" in text:
        sys.exit(f"{script}: {name} cannot be embedded as a raw string")
    return [before + '####"""', text, '"""####' + after]


def write(target, header, extension, doc, declaration, entries, script):
    """Writes `target`: `header` comment lines, then `extension <extension> { <doc> <declaration> = [ … ] }` with one
    `("name", text)` per entry of `entries` (name, text). A text's own final line break stays part of it (the
    literal's last line break is not)."""
    out = [*header, "", f"extension {extension} {{", f"    /// {doc}", f"    {declaration} = ["]
    for name, text in entries:
        out += raw_literal(name, text, f'        ("{name}", ', "),", script)
    out += ["    ]", "}", ""]
    with open(target, "w", encoding="utf-8") as f:
        f.write("\n".join(out))
    print(target)
