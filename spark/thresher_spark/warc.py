"""Pages of a WARC file, read on an executor by the CLI's own WARC reader
(`thresher.WarcReader`, the library's src/source/warc.rs): the same page names `FILE#N`,
the same records skipped (non-2xx, non-HTML, robots.txt), the same recovery after a
damaged record (one error row per skipped span, reading goes on at the next record).

A file on a remote file system (`hdfs://`, `s3://`, ... anything pyarrow's file systems
open) is first copied to a local temporary file, and its pages are named after the
original path.
"""

import os
import shutil
import tempfile


def display_name(path):
    """The name the CLI would print for `path` (a `file:` URI as a plain path)."""
    if path.startswith("file://"):
        return path[len("file://"):]
    if path.startswith("file:"):
        return path[len("file:"):]
    return path


def _local_copy(path, folder):
    """`path` copied from its file system into `folder`, keeping its file name."""
    import pyarrow.fs as pafs
    fs, inner = pafs.FileSystem.from_uri(path)
    local = os.path.join(folder, os.path.basename(inner) or "input.warc")
    with fs.open_input_stream(inner) as src, open(local, "wb") as dst:
        shutil.copyfileobj(src, dst, 1 << 20)
    return local


def pages(path, max_bytes):
    """Rows (path, url, html, fetched_at, content_type, error) of the WARC at `path`."""
    import thresher
    name = display_name(path)
    if "://" not in name:
        yield from thresher.WarcReader(name, max_page_bytes=max_bytes)
        return
    with tempfile.TemporaryDirectory(prefix="thresher-warc-") as folder:
        local = _local_copy(path, folder)
        for row in thresher.WarcReader(local, max_page_bytes=max_bytes):
            shown = row[0]
            if shown.startswith(local):
                shown = name + shown[len(local):]
            yield (shown,) + tuple(row[1:])
