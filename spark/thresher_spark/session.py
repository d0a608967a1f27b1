"""The Spark session of a job, with this package shipped to the executors."""

import os
import tempfile
import zipfile

from pyspark.sql import SparkSession

from .log import JobError


def add_cluster_arguments(p):
    """The options both jobs share: cluster mode, Spark master, shuffle partitions,
    checkpoints, leader rounds."""
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--strict", action="store_const", const="strict", dest="mode",
                      help="dedup's strict clusters (stars around mains; the default)")
    mode.add_argument("--components", action="store_const", const="components", dest="mode",
                      help="connected components")
    p.add_argument("--master", help="Spark master (e.g. local[2]); default: spark-submit's")
    p.add_argument("--shuffle-partitions", type=int, help="spark.sql.shuffle.partitions")
    p.add_argument("--checkpoint-dir",
                   help="reliable checkpoints on shared storage between rounds (default: local checkpoints)")
    p.add_argument("--max-leader-rounds", type=int, default=0,
                   help="stop splitting large buckets after N rounds (0: never); the members left "
                        "then lose that bucket's candidates (reported), unlike dedup")


def ship_package(spark):
    """Make `thresher_spark` importable by the Python workers (the UDFs live in it):
    a zip of this package added with `addPyFile`, as `--py-files` would."""
    here = os.path.dirname(os.path.abspath(__file__))
    fd, path = tempfile.mkstemp(prefix="thresher_spark-", suffix=".zip")
    os.close(fd)
    with zipfile.ZipFile(path, "w") as z:
        for name in sorted(os.listdir(here)):
            if name.endswith(".py"):
                z.write(os.path.join(here, name), f"thresher_spark/{name}")
    spark.sparkContext.addPyFile(path)


def start(app, master=None, shuffle_partitions=None, conf=()):
    """A session named `app` (quiet console, WARN logs), this package shipped."""
    builder = (SparkSession.builder.appName(app)
               .config("spark.ui.showConsoleProgress", "false"))
    if master:
        builder = builder.master(master)
    if shuffle_partitions:
        builder = builder.config("spark.sql.shuffle.partitions", str(shuffle_partitions))
    for key, value in conf:
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    ship_package(spark)
    return spark
