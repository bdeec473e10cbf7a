"""Validates the web flavour of every city under an output folder against docs/schemas/web-*.schema.json.

usage: python3 validate_schemas.py SCHEMA_DIR OUTPUT_DIR   (prints the number of documents validated: the
manifest member, each head, each row chunk, each text part joined, each string table; exit 1 on error)
"""
import gzip
import json
import os
import sys

import jsonschema

schemas, outdir = sys.argv[1], sys.argv[2]


def validator(name):
    schema = json.load(open(os.path.join(schemas, f"web-{name}.schema.json"), encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


count = 0
for city in sorted(os.listdir(outdir)):
    manifest_path = os.path.join(outdir, city, "manifest.json")
    if not os.path.isfile(manifest_path):
        continue
    manifest = json.load(open(manifest_path, encoding="utf-8"))
    validator("manifest").validate(manifest["web"])
    count += 1
    for part in manifest["web"]["parts"]:
        with gzip.open(os.path.join(outdir, city, part["path"])) as f:
            head = json.load(f)
        chunks = part.get("chunks", [])
        texts = []
        for chunk in chunks:
            with gzip.open(os.path.join(outdir, city, chunk["path"])) as f:
                texts.append(f.read())
        if head.get("assemble") == "text":
            # A part in pieces of JSON text: the head, and the joined text as the part's document.
            validator("text-head").validate(head)
            validator(part["name"]).validate(json.loads(b"".join(texts)))
            count += 2
        else:
            validator(part["name"]).validate(head)
            count += 1
            for text in texts:  # row chunks of places
                validator("rows").validate(json.loads(text))
                count += 1
    for path in sorted(manifest["web"]["strings"].values()):
        with open(os.path.join(outdir, city, path), encoding="utf-8") as f:
            validator("strings").validate(json.load(f))
        count += 1
print(count)
