"""The YAML subset of configs/*.yaml and configs/policies/*.yaml, enough to derive variants.

The machine has no PyYAML, and a variant is "this preset or policy file with these fields
changed", so this reads exactly what those files use: block mappings nested by indentation,
`key: scalar`, `key:` followed by a deeper block, one-line flow mappings `key: {a: 1, b: x}`,
one-line flow lists of plain scalars `key: [0, 8, 16]` (l1.shared_options_kb; kept as the string
"[0, 8, 16]"), and `#` comments. Scalars stay strings (so `0xACE1` or `179.2` are written back as
they were read); values merged in from Python are converted (True -> true, 0.75 -> 0.75,
[0, 8] -> [0, 8]). Anything else (block lists, nested lists, quotes, anchors, multi-line scalars)
is an error naming the file and line, not a silent misread.
gpusim validates the result (unknown keys, ranges), so a typo in an override fails the point.
"""
import re

_KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*):(?:\s+(.*))?$")


class YamlSubsetError(ValueError):
    pass


def _strip_comment(line):
    # A comment starts at a '#' at the start of the line or after whitespace.
    m = re.search(r"(^|\s)#", line)
    return line[:m.start()] if m else line


def _flow_map(text, where):
    inner = text[1:-1].strip()
    out = {}
    if not inner:
        return out
    for item in inner.split(","):
        k, sep, v = item.partition(":")
        if not sep or not k.strip() or not v.strip() or any(c in v for c in "{}[]"):
            raise YamlSubsetError(f"{where}: unsupported flow mapping item {item.strip()!r}")
        out[k.strip()] = v.strip()
    return out


def _flow_list(text, where):
    items = [i.strip() for i in text[1:-1].split(",")] if text[1:-1].strip() else []
    if any(not i or any(c in i for c in "{}[]'\"&*|>!") for i in items):
        raise YamlSubsetError(f"{where}: unsupported flow list {text!r} (plain scalars only)")
    return "[" + ", ".join(items) + "]"


def parse(text, source="<text>"):
    """Returns nested dicts of strings."""
    root = {}
    stack = [(0, root)]  # (indentation of the mapping's keys, mapping)
    pending = None       # (indent, key, parent) of a `key:` line waiting for its block
    for n, raw in enumerate(text.splitlines(), 1):
        line = _strip_comment(raw).rstrip()
        if not line.strip():
            continue
        where = f"{source}:{n}"
        indent = len(line) - len(line.lstrip(" "))
        if "\t" in line[:indent + 1]:
            raise YamlSubsetError(f"{where}: tabs are not supported")
        m = _KEY.match(line.strip())
        if not m:
            raise YamlSubsetError(f"{where}: unsupported line {raw.strip()!r} (expected 'key: value')")
        key, value = m.group(1), (m.group(2) or "").strip()
        if pending is not None:
            p_indent, p_key, p_parent = pending
            p_parent[p_key] = {}
            if indent > p_indent:
                stack.append((indent, p_parent[p_key]))
            pending = None
        while stack[-1][0] > indent:
            stack.pop()
        if stack[-1][0] != indent:
            raise YamlSubsetError(f"{where}: bad indentation")
        parent = stack[-1][1]
        if key in parent:
            raise YamlSubsetError(f"{where}: duplicate key {key!r}")
        if not value:
            pending = (indent, key, parent)
        elif value.startswith("{") and value.endswith("}"):
            parent[key] = _flow_map(value, where)
        elif value.startswith("[") and value.endswith("]"):
            parent[key] = _flow_list(value, where)
        elif value[0] in "[{&*|>!'\"":
            raise YamlSubsetError(f"{where}: unsupported value {value!r}")
        else:
            parent[key] = value
    if pending is not None:
        pending[2][pending[1]] = {}
    return root


def load(path):
    with open(path) as f:
        return parse(f.read(), str(path))


def scalar(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float, str)):
        return str(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(scalar(x) for x in v) + "]"
    raise TypeError(f"cannot write {v!r} as a YAML scalar")


def merge(base, over, path=""):
    """A copy of base with over's fields replaced, recursively; new keys are added (gpusim
    rejects unknown ones)."""
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict):
            if k in out and not isinstance(out[k], dict):
                raise YamlSubsetError(f"override {path}{k}: a section replaces a scalar")
            out[k] = merge(out.get(k, {}), v, f"{path}{k}.")
        else:
            if isinstance(out.get(k), dict):
                raise YamlSubsetError(f"override {path}{k}: a scalar replaces a section")
            out[k] = scalar(v)
    return out


def dump(data, header=""):
    lines = [f"# {h}" if h else "#" for h in header.splitlines()] if header else []

    def emit(d, indent):
        for k, v in d.items():
            if isinstance(v, dict):
                lines.append(" " * indent + f"{k}:")
                emit(v, indent + 2)
            else:
                lines.append(" " * indent + f"{k}: {v}")

    emit(data, 0)
    return "\n".join(lines) + "\n"
