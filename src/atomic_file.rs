//! Atomic output files: every output is written to a temporary name in its own directory
//! (`.NAME.PID.tmp`) and renamed over `NAME` only once it is whole, so a run killed at
//! any moment leaves either the old file (or none) or the new one, never half of it.
//! Same directory, because `rename` is atomic only within one file system.
//!
//! An [`AtomicFile`] dropped without [`AtomicFile::commit`] (an error, `--max-errors`)
//! removes its temporary file; a killed process leaves it behind, dot-named, beside the
//! untouched output (the next run's temporary file has another PID).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// A file being written under a temporary name; [`commit`](AtomicFile::commit) renames it.
pub struct AtomicFile {
    dest: PathBuf,
    tmp: PathBuf,
    file: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Start writing `dest` (creating its directory): the bytes go to a temporary file.
    pub fn create(dest: &Path) -> Result<AtomicFile> {
        let dir = dest
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let name = dest
            .file_name()
            .ok_or_else(|| Error::Config(format!("{}: not a file name", dest.display())))?;
        let tmp = dir.join(format!(
            ".{}.{}.tmp",
            name.to_string_lossy(),
            std::process::id()
        ));
        let file = File::create(&tmp).map_err(|e| Error::io(&tmp, e))?;
        Ok(AtomicFile {
            dest: dest.to_owned(),
            tmp,
            file: Some(BufWriter::with_capacity(1 << 16, file)),
        })
    }

    /// The final name.
    pub fn path(&self) -> &Path {
        &self.dest
    }

    /// Flush, sync to disk and rename over the final name (then sync the directory, so
    /// the rename itself survives a crash).
    pub fn commit(mut self) -> Result<()> {
        let out_err = |path: &Path, e| Error::Output {
            path: path.to_owned(),
            source: e,
        };
        let writer = self.file.take().expect("not committed yet");
        let file = writer
            .into_inner()
            .map_err(|e| out_err(&self.dest, e.into_error()))?;
        file.sync_all().map_err(|e| out_err(&self.dest, e))?;
        drop(file);
        std::fs::rename(&self.tmp, &self.dest).map_err(|e| out_err(&self.dest, e))?;
        if let Some(dir) = self.dest.parent().filter(|d| !d.as_os_str().is_empty()) {
            // Best effort: not every file system lets a directory be opened and synced.
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.as_mut().expect("not committed").write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.file.as_mut().expect("not committed").write_all(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().expect("not committed").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Write `bytes` to `dest` atomically.
pub fn write_atomic(dest: &Path, bytes: &[u8]) -> Result<()> {
    let mut f = AtomicFile::create(dest)?;
    f.write_all(bytes).map_err(|e| Error::Output {
        path: dest.to_owned(),
        source: e,
    })?;
    f.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_visible_before_commit_and_an_uncommitted_file_leaves_the_old_one() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("out.jsonl");
        std::fs::write(&dest, "old\n").unwrap();
        {
            let mut f = AtomicFile::create(&dest).unwrap();
            f.write_all(b"new, half written").unwrap();
            f.flush().unwrap();
            assert_eq!(std::fs::read_to_string(&dest).unwrap(), "old\n");
        } // dropped: the temporary file goes, the old file stays
        assert_eq!(std::fs::read_to_string(&dest).unwrap(), "old\n");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        let mut f = AtomicFile::create(&dest).unwrap();
        f.write_all(b"new\n").unwrap();
        f.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&dest).unwrap(), "new\n");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn write_atomic_creates_the_directory() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("a/b/summary.json");
        write_atomic(&dest, b"{}\n").unwrap();
        assert_eq!(std::fs::read_to_string(&dest).unwrap(), "{}\n");
    }
}
