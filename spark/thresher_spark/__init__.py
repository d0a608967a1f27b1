"""thresher on Spark: the distributed steps shared by the jobs in `spark/`.

- `dedup`: clusters from signatures (candidates by band hashes, verification,
  connected components, mains), the distributed form of src/dedup/;
- `pages`: pages from WARC files or Parquet, extracted on the executors through the
  `thresher` Python package (one URL-prefix group per task for the cross-page methods);
- `sign`: signatures of the extracted texts and the site-template dates forgotten;
- `clusters`: cluster records and the pages' cluster fields, as `thresher run` writes them.
"""
