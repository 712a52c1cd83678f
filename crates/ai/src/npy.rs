//! NumPy files of `float32` rows: what the training examples (`selfplay`,
//! `policy_rows`) write for the scripts in `crates/ai/training`.

use std::io::Write;

/// Writes `data` as a little-endian `float32` NumPy array of `cols`
/// columns (`data.len()` must be a multiple of `cols`).
///
/// ```
/// let path = std::env::temp_dir().join("carcassonne-npy-doc.npy");
/// carcassonne_ai::npy::write_rows(&path, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 3).unwrap();
/// let bytes = std::fs::read(&path).unwrap();
/// assert!(bytes.starts_with(b"\x93NUMPY\x01\x00"));
/// assert_eq!(bytes.len() % 64, 6 * 4 % 64); // a header padded to 64 bytes, then the values
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub fn write_rows(path: impl AsRef<std::path::Path>, data: &[f32], cols: usize) -> std::io::Result<()> {
    assert!(cols > 0 && data.len() % cols == 0, "whole rows of {cols} columns");
    let rows = data.len() / cols;
    let mut header = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': ({rows}, {cols}), }}");
    // Magic (6), version (2), length (2), header and newline: a multiple of 64.
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut file = std::io::BufWriter::new(std::fs::File::create(path)?);
    file.write_all(b"\x93NUMPY\x01\x00")?;
    file.write_all(&(header.len() as u16).to_le_bytes())?;
    file.write_all(header.as_bytes())?;
    for v in data {
        file.write_all(&v.to_le_bytes())?;
    }
    file.flush()
}
