"""thresher: crawler-side preprocessing of web pages, from Python.

The same engine as the ``thresher`` command line (the Rust library, through PyO3):
boilerplate removal and metadata (``extract``, ``extract_arrow``, ``GroupExtractor`` for
the cross-page methods; ``SiteLearner`` and ``SiteModel`` to spread a site's learning and
extraction over many tasks), near-duplicate clusters (``dedup``, ``sign_arrow``) and the
persistent dedup index (``Index``). Records are those the CLI writes, field for field;
options are the keys of the CLI's ``--config`` YAML file; errors are ``thresher.Error``
subclasses carrying the CLI's messages.
"""

from ._native import (
    clusters_from_rows,
    ConfigError,
    Error,
    GroupExtractor,
    Index,
    IndexStoreError,
    InputError,
    SiteLearner,
    SiteModel,
    OutputError,
    __version__,
    dedup,
    extract,
    extract_arrow,
    group_key,
    learning_contributions,
    learning_sample,
    loadable,
    record_schema,
    sign_arrow,
    WarcReader,
)

__all__ = [
    "WarcReader",
    "clusters_from_rows",
    "ConfigError",
    "Error",
    "GroupExtractor",
    "Index",
    "IndexStoreError",
    "InputError",
    "OutputError",
    "SiteLearner",
    "SiteModel",
    "__version__",
    "dedup",
    "extract",
    "extract_arrow",
    "group_key",
    "learning_contributions",
    "learning_sample",
    "loadable",
    "record_schema",
    "sign_arrow",
]
