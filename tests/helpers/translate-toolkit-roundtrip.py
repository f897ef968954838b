"""Reads and writes locale files with translate-toolkit, as Weblate's "i18next JSON v4" format.

For each path given, prints one line: "same <path>" when translate-toolkit's writer, with the
settings of Weblate's "Customize JSON output" add-on (2 spaces, keys unsorted), gives back the
file byte for byte, else "diff <path>". Used by tests/locales/file-format.test.ts.
"""

import io
import sys

from translate.storage.jsonl10n import I18NextV4File

for path in sys.argv[1:]:
    with open(path, "rb") as file:
        original = file.read()
    store = I18NextV4File()
    store.settargetlanguage(path.replace("\\", "/").split("/")[-2])
    store.parse(original)
    store.dump_args["indent"] = 2
    store.dump_args["sort_keys"] = False
    written = io.BytesIO()
    store.serialize(written)
    print(("same " if written.getvalue() == original else "diff ") + path)
