"""Pages of a WARC file, read on an executor, as the CLI reads them (src/source/warc.rs):
`response` and `resource` records become pages named `FILE#N` (N: the record's number in
the file, from 1), `WARC-Target-URI` the URL, `WARC-Date` the fetch time; responses with
a non-2xx status or a content type that is not HTML, and robots.txt, are skipped; chunked
transfer and gzip/deflate content encodings are undone; bodies are cut at `max_bytes`.
A `revisit` record (its payload is an earlier response's) becomes an error row naming it:
resolving it needs the CLI (`thresher run` reads revisits).

Files are opened through pyarrow's file systems (local paths, `file:`, `hdfs://`,
`s3://`...), plain or gzip (one member per record or the whole file).
"""

import gzip
import zlib
from urllib.parse import urlsplit

HTML_TYPES = {"text/html", "application/xhtml+xml", "text/xml", "application/xml",
              "text/plain", ""}


def open_path(path):
    """A binary stream of `path` (a local path or a URI pyarrow knows)."""
    if "://" not in path and not path.startswith("file:"):
        return open(path, "rb")
    import pyarrow.fs as pafs
    fs, inner = pafs.FileSystem.from_uri(path)
    return fs.open_input_stream(inner)


def display_name(path):
    """The name the CLI would print for `path` (a `file:` URI as a plain path)."""
    if path.startswith("file://"):
        return path[len("file://"):]
    if path.startswith("file:"):
        return path[len("file:"):]
    return path


def _headers(lines):
    out = {}
    for line in lines:
        name, sep, value = line.partition(":")
        if sep:
            out.setdefault(name.strip().lower(), value.strip())
    return out


def records(stream):
    """(headers, block) of each WARC record of a decompressed stream."""
    while True:
        line = stream.readline()
        if not line:
            return
        if not line.strip():
            continue
        if not line.startswith(b"WARC/"):
            raise ValueError(f"not a WARC record header: {line[:40]!r}")
        head = []
        while True:
            h = stream.readline()
            if not h or not h.strip():
                break
            head.append(h.decode("utf-8", "replace"))
        headers = _headers(head)
        length = int(headers.get("content-length", "-1"))
        if length < 0:
            raise ValueError("record without Content-Length")
        block = stream.read(length)
        if len(block) < length:
            raise ValueError("record cut short")
        yield headers, block


def _dechunk(body):
    out, pos = bytearray(), 0
    while True:
        end = body.find(b"\r\n", pos)
        if end < 0:
            return None
        size = int(body[pos:end].split(b";")[0].strip() or b"0", 16)
        if size == 0:
            return bytes(out)
        out += body[end + 2:end + 2 + size]
        pos = end + 2 + size + 2


def _decode(encoding, body):
    enc = encoding.strip().lower()
    if enc in ("", "identity"):
        return body
    if enc in ("gzip", "x-gzip"):
        return gzip.decompress(body)
    if enc == "deflate":
        try:
            return zlib.decompress(body)
        except zlib.error:
            return zlib.decompress(body, -zlib.MAX_WBITS)
    raise ValueError(f"content encoding {encoding}")


def _http(block):
    """(status, content type or None, body) of an HTTP response block, or None."""
    end = block.find(b"\r\n\r\n")
    if end < 0:
        return None
    lines = block[:end].decode("latin-1").split("\r\n")
    parts = lines[0].split()
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        return None
    headers = _headers(lines[1:])
    body = block[end + 4:]
    if "chunked" in headers.get("transfer-encoding", "").lower():
        body = _dechunk(body) or body
    if headers.get("content-encoding"):
        body = _decode(headers["content-encoding"], body)
    return int(parts[1]), headers.get("content-type"), body


def pages(path, max_bytes):
    """Rows (path, url, html, fetched_at, content_type, error) of the WARC at `path`."""
    name = display_name(path)
    with open_path(path) as raw:
        head = raw.read(2)
    stream = open_path(path)
    if head == b"\x1f\x8b":
        stream = gzip.GzipFile(fileobj=stream)
    index = 0
    try:
        for headers, block in records(stream):
            index += 1
            kind = headers.get("warc-type", "").lower()
            if kind not in ("response", "resource", "revisit"):
                continue
            url = headers.get("warc-target-uri", "").strip("<>")
            key = f"{name}#{index}"
            if urlsplit(url).path == "/robots.txt":
                continue
            date = headers.get("warc-date")
            if not date:
                yield (key, url, None, None, None, "no WARC-Date")
                continue
            if kind == "revisit":
                yield (key, url, None, date, None, "revisit records need `thresher run`")
                continue
            if kind == "resource":
                ctype, body = headers.get("content-type"), block
            else:
                try:
                    http = _http(block)
                except (ValueError, OSError, zlib.error):
                    continue  # the CLI skips a response it cannot decode
                if http is None:
                    continue
                status, ctype, body = http
                if not 200 <= status < 300:
                    continue
            if ctype is not None and ctype.split(";")[0].strip().lower() not in HTML_TYPES:
                continue
            yield (key, url, body[:max_bytes], date, ctype, None)
    except (ValueError, OSError, EOFError) as e:
        yield (f"{name}#{index + 1}", "", None, None, None, f"cannot read further: {e}")
    finally:
        stream.close()
