#!/usr/bin/env python3
"""Validates YAML or JSON files against a JSON Schema, as an editor's YAML language
server would: validate_schema.py SCHEMA FILE...  Prints `ok FILE` or `invalid FILE: why`
for each file. Exit 0 when all are valid, 1 otherwise, 3 when PyYAML or jsonschema is
missing (`pip install pyyaml jsonschema`)."""
import json
import sys

try:
    import jsonschema
    import yaml
except ImportError as err:
    print(f"missing package: {err.name}", file=sys.stderr)
    sys.exit(3)

with open(sys.argv[1], encoding="utf-8") as f:
    schema = json.load(f)
validator = jsonschema.Draft7Validator(schema)
failed = False
for path in sys.argv[2:]:
    with open(path, encoding="utf-8") as f:
        docs = [d for d in yaml.safe_load_all(f) if d is not None]
    errors = [e for d in docs for e in validator.iter_errors(d)]
    if errors:
        failed = True
        print(f"invalid {path}: {errors[0].message}")
    else:
        print(f"ok {path}")
sys.exit(1 if failed else 0)
