"""Type stubs of the thresher package (the native module thresher._native)."""

import datetime
import os
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple, Union

import pyarrow

__version__: str

_Html = Union[bytes, str]
_Time = Union[str, datetime.datetime, None]
_Records = Union[Iterable[Mapping[str, Any]], pyarrow.Table, pyarrow.RecordBatch]

class Error(Exception):
    """Base class of thresher's errors; the message is the CLI's."""

class ConfigError(Error):
    """An option or configuration value that is not acceptable (unknown key, bad value)."""

class InputError(Error):
    """Input that cannot be read: a file, a line of records, a page's fields."""

class OutputError(Error):
    """An output that cannot be written."""

class IndexStoreError(Error):
    """A persistent dedup index that cannot be used as it is (damaged, in use, other options)."""

def extract(
    html: _Html,
    url: Optional[str] = None,
    *,
    fetched_at: _Time = None,
    popularity: Optional[float] = None,
    path: Optional[str] = None,
    content_type: Optional[str] = None,
    **options: Any,
) -> Dict[str, Any]:
    """The record `thresher extract` writes for this page (or its error record).
    `options` are the keys of a `--config` file, e.g. `output_format="markdown"` (or
    `"html"`), `output_links=True`, `output_images=True`: the record then carries
    `markdown` (or `html`) beside `text`."""

def extract_arrow(
    batch: Union[pyarrow.RecordBatch, pyarrow.Table],
    *,
    threads: Optional[int] = None,
    **options: Any,
) -> pyarrow.Table:
    """Records of the rows (`url`, `html`, optional `path`, `fetched_at`, `popularity`,
    `content_type`) as a table of `record_schema()`, on all cores without the GIL."""

def record_schema(output_format: str = "text") -> pyarrow.Schema:
    """The schema of record tables; with `output_format` "markdown" or "html", that
    column after `text`."""

def group_key(url: str, depth: Union[str, int, None] = None) -> str:
    """The URL-prefix group of a page (`--group-depth`: "parent" or a number)."""

class GroupExtractor:
    """Extraction of a group of pages with the cross-page methods."""

    def __init__(self, **options: Any) -> None: ...
    def add(
        self,
        html: _Html,
        url: Optional[str] = None,
        *,
        fetched_at: _Time = None,
        popularity: Optional[float] = None,
        path: Optional[str] = None,
        content_type: Optional[str] = None,
    ) -> None:
        """Add one page to the group."""
    def add_arrow(self, batch: Union[pyarrow.RecordBatch, pyarrow.Table]) -> None:
        """Add the rows of an Arrow batch or table."""
    def __len__(self) -> int: ...
    def clear(self) -> None:
        """Forget the pages added."""
    def extract(self, *, threads: Optional[int] = None) -> List[Dict[str, Any]]:
        """Learn from the group and extract every page, in the order added."""
    def extract_arrow(self, *, threads: Optional[int] = None) -> pyarrow.Table:
        """As `extract()`, as a table of `record_schema()`."""

def loadable(batch: Union[pyarrow.RecordBatch, pyarrow.Table], **options: Any) -> List[bool]:
    """Per row of pages, whether it is a page (not an error record): only pages count
    for the learning pass."""

def learning_sample(urls: List[str], **options: Any) -> List[bool]:
    """Per URL of a site's pages, whether the cross-page learning pass parses its page
    (the sample of smallest URL hash per URL prefix with enough pages); the other pages
    are only counted."""

def learning_contributions(
    batch: Union[pyarrow.RecordBatch, pyarrow.Table],
    *,
    threads: Optional[int] = None,
    **options: Any,
) -> List[Optional[bytes]]:
    """Per row, what the page gives the cross-page learners (bytes for
    `SiteLearner.add`), or None for a row that is not a page or does not parse."""

class SiteLearner:
    """A site's cross-page learners, fed from any number of tasks: `count` the pages
    `learning_sample` left out, `add` the sampled pages' contributions, then `state`."""

    def __init__(self, **options: Any) -> None: ...
    def count(self, urls: List[str]) -> None:
        """Count pages no sample needs, by URL."""
    def add(self, urls: List[str], contributions: List[Optional[bytes]]) -> None:
        """Add sampled pages with their `learning_contributions` (None is skipped)."""
    def state(self) -> bytes:
        """Learn the templates and models: the site's state for `SiteModel` (once)."""

class SiteModel:
    """Extraction of any subset of a site's pages with its learned state: each record is
    the one `GroupExtractor` gives that page among all the site's pages."""

    def __init__(self, state: bytes, **options: Any) -> None: ...
    def extract_arrow(
        self,
        batch: Union[pyarrow.RecordBatch, pyarrow.Table],
        *,
        threads: Optional[int] = None,
    ) -> pyarrow.Table:
        """The records of the rows, as a table of `record_schema()`."""

def dedup(
    records: _Records, *, shingle_memory: int = 256, **options: Any
) -> List[Dict[str, Any]]:
    """Near-duplicate clusters, as `thresher dedup` writes them."""

def sign_arrow(records: _Records, **options: Any) -> pyarrow.Table:
    """The rows `thresher sign` writes for the Spark job."""

def clusters_from_rows(
    signatures: Union[pyarrow.Table, pyarrow.RecordBatch],
    rows: Union[pyarrow.Table, pyarrow.RecordBatch],
) -> List[Dict[str, Any]]:
    """Cluster records (as `thresher run` writes them) of the Spark job's member rows
    (`main`, `member`, `similarity`, `first`, `main_degree`, `strict`, `canonical_with`),
    given the signature rows of the documents they name, with the signer's
    `thresher.dedup_config` schema metadata."""

class WarcReader:
    """The pages of one WARC file (`.warc` or `.warc.gz`) as the CLI reads them: the same
    page names (`FILE#N`), the same records skipped, the same recovery after a damaged
    record. Iterating gives `(path, url, html, fetched_at, content_type, error)` tuples;
    a record that cannot be read is a row with `error` set and `html` None."""

    def __init__(self, path: str, *, max_page_bytes: Optional[int] = None) -> None: ...
    def __iter__(self) -> "WarcReader": ...
    def __next__(
        self,
    ) -> Tuple[str, str, Optional[bytes], Optional[str], Optional[str], Optional[str]]: ...

class Index:
    """The persistent dedup index in a directory (`thresher index`)."""

    def __init__(
        self, path: Union[str, os.PathLike], create: bool = False, **options: Any
    ) -> None: ...
    @property
    def path(self) -> str: ...
    def add(self, records: _Records, *, commit_every: int = 10000) -> Dict[str, Any]:
        """Add a batch; its report with the clusters it touched."""
    def query(self, records: _Records, *, wait: float = 0.0) -> List[Dict[str, Any]]:
        """Stored documents near each record (read-only; waits up to `wait` s for an add)."""
    def remove(self, keys: List[str]) -> Dict[str, Any]:
        """Remove documents by key."""
    def export(self, *, wait: float = 0.0) -> List[Dict[str, Any]]:
        """Every cluster of the index (read-only)."""
    def stats(self, *, wait: float = 0.0) -> Dict[str, Any]:
        """The index's counters and options (read-only)."""
    def check(self, *, wait: float = 0.0) -> Dict[str, Any]:
        """Verify without writing: `ok`, `documents`, `postings`, `repaired`, `damaged`
        (every document failing its checksums), `problems`, `more_problems`. A busy index
        raises IndexStoreError after `wait` seconds."""
    def repair(self) -> Dict[str, Any]:
        """Keep what is intact (`thresher index repair`): `store_repaired`, `kept`, `lost`."""
