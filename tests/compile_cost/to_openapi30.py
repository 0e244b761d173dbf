#!/usr/bin/env python3
"""Converts a copy of generated/openapi/openapi.json (OpenAPI 3.1) to OpenAPI 3.0.3 for
progenitor, which reads 3.0 only (the `openapiv3` crate), for tests/compile_cost/run.sh.

    to_openapi30.py IN.json OUT.json

Only what 3.0 cannot say changes; every path, operation and component schema is kept
(progenitor generates a type for every component schema, so the notification payloads,
which are component schemas, are generated too). Schemas are walked by structure, so a
property that happens to be called `type` or `const` is never rewritten. Changes:

- `openapi: 3.1.0` -> `3.0.3`; `webhooks` (3.1 only) dropped: progenitor has no use for
  them, and the payload schemas they reference stay in components;
- a list `type` (`["string", "number", "boolean"]`: a scalar whose type is not shown) ->
  `oneOf` of one schema per type (with `"null"` in the list: `nullable: true`);
- `exclusiveMinimum: N` / `exclusiveMaximum: N` -> `minimum`/`maximum: N` with the
  boolean `exclusiveMinimum`/`exclusiveMaximum: true`;
- `contentEncoding: base64` -> `format: byte`; `const: V` -> `enum: [V]`; `examples` ->
  `example` (the first);
- `if`/`then`/`else` (conditional requirements) dropped: 3.0 has no conditionals, and
  an `allOf` left with nothing in it is dropped too;
- a component schema named like another's inline property type (`FxRequestStatus`, and
  `FxRequest` has an inline `status`) is renamed `<Name>Schema`, with every `$ref` to it:
  progenitor 0.15.1 (typify 0.8) names the inline type the same and emits two types of
  one name, which does not compile. Only a Rust type name changes, not the API.

It prints what it changed, by kind, on standard error.
"""

import collections
import json
import re
import sys

changes = collections.Counter()

SCHEMA_MAPS = ("properties", "patternProperties", "definitions", "$defs")
SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
SCHEMA_ONE = ("items", "additionalProperties", "not", "contains", "propertyNames")


def schema(s):
    """Converts one schema object (and every schema inside it) in place."""
    if not isinstance(s, dict):
        return s
    for key in SCHEMA_MAPS:
        if isinstance(s.get(key), dict):
            for sub in s[key].values():
                schema(sub)
    for key in SCHEMA_LISTS:
        if isinstance(s.get(key), list):
            for sub in s[key]:
                schema(sub)
    for key in SCHEMA_ONE:
        if isinstance(s.get(key), dict):
            schema(s[key])

    t = s.get("type")
    if isinstance(t, list):
        types = [x for x in t if x != "null"]
        if len(types) < len(t):
            s["nullable"] = True
            changes["type list with null -> nullable"] += 1
        if len(types) == 1:
            s["type"] = types[0]
        else:
            del s["type"]
            if types:
                s.setdefault("oneOf", []).extend({"type": x} for x in types)
            changes["type list -> oneOf of its types"] += 1
    for bound, plain in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if isinstance(s.get(bound), (int, float)) and not isinstance(s.get(bound), bool):
            s[plain] = s[bound]
            s[bound] = True
            changes[f"numeric {bound} -> {plain} + {bound}: true"] += 1
    if "contentEncoding" in s:
        if s.pop("contentEncoding") == "base64":
            s["format"] = "byte"
        changes["contentEncoding -> format: byte"] += 1
    if "const" in s:
        s["enum"] = [s.pop("const")]
        changes["const -> enum"] += 1
    if "examples" in s and isinstance(s["examples"], list):
        examples = s.pop("examples")
        if examples:
            s["example"] = examples[0]
        changes["examples -> example"] += 1
    for key in ("if", "then", "else"):
        if key in s:
            del s[key]
            changes["if/then/else dropped"] += key == "if"
    if "allOf" in s:
        s["allOf"] = [x for x in s["allOf"] if x != {}]
        if not s["allOf"]:
            del s["allOf"]
            changes["allOf left empty dropped"] += 1
    return s


def upper_camel(name):
    """typify's name for a property's inline type, after its schema's name (heck)."""
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", name)
    return "".join(w[:1].upper() + w[1:].lower() for w in words)


def rename_colliding(doc):
    """Renames component schemas that typify would also give to an inline property."""
    schemas = doc.get("components", {}).get("schemas", {})
    taken = set()
    for name, s in schemas.items():
        for prop, sub in (s.get("properties") or {}).items():
            if isinstance(sub, dict) and "$ref" not in sub:
                taken.add(name + upper_camel(prop))
    renames = {}
    for name in schemas:
        if name in taken:
            new = name + "Schema"
            while new in schemas or new in taken:
                new += "_"
            renames[name] = new
    if not renames:
        return
    for old, new in renames.items():
        schemas[new] = schemas.pop(old)
        changes[f"component {old} renamed {new} (typify name clash)"] += 1
    refs = {f"#/components/schemas/{o}": f"#/components/schemas/{n}" for o, n in renames.items()}

    def fix(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k == "$ref" and v in refs:
                    x[k] = refs[v]
                else:
                    fix(v)
        elif isinstance(x, list):
            for v in x:
                fix(v)

    fix(doc)


def media(content):
    for m in (content or {}).values():
        if "schema" in m:
            schema(m["schema"])


def operation(op):
    for p in op.get("parameters", []):
        if "schema" in p:
            schema(p["schema"])
    if "requestBody" in op:
        media(op["requestBody"].get("content"))
    for r in op.get("responses", {}).values():
        media(r.get("content"))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: to_openapi30.py IN.json OUT.json")
    with open(sys.argv[1]) as f:
        doc = json.load(f)
    if not str(doc.get("openapi", "")).startswith("3.1"):
        sys.exit(f"{sys.argv[1]} is OpenAPI {doc.get('openapi')}, not 3.1")
    doc["openapi"] = "3.0.3"
    if doc.pop("webhooks", None) is not None:
        changes["webhooks dropped"] += 1
    for s in doc.get("components", {}).get("schemas", {}).values():
        schema(s)
    for item in doc.get("paths", {}).values():
        for method in ("get", "put", "post", "delete", "options", "head", "patch", "trace"):
            if method in item:
                operation(item[method])
    rename_colliding(doc)
    with open(sys.argv[2], "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    for what, n in sorted(changes.items()):
        print(f"  {n:4} x {what}", file=sys.stderr)


if __name__ == "__main__":
    main()
