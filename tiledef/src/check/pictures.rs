//! Authors' pictures (`picture` on a marker kind, a figure, an emblem, a site's look): each file is read and
//! parsed here (`crate::picture`), so a missing, oversized or broken picture is an error at the
//! key naming it, at load time rather than first when something is drawn.

use super::Checker;
use std::path::Path;

/// A declaration that may name a picture: its table's pointer, how it reads in a message, its
/// `picture`, and whether it also names a library `icon`.
struct Named<'a> {
    ptr: String,
    what: String,
    picture: &'a str,
    icon: bool,
}

impl Checker<'_> {
    /// Checks every picture the files `order` name, each file's own declarations once.
    pub(super) fn pictures(&mut self, order: &[usize]) {
        for &f in order {
            for named in named_pictures(&self.files[f].file) {
                self.picture(f, &named);
            }
        }
    }

    fn picture(&mut self, f: usize, named: &Named) {
        let ptr = format!("{}/picture", named.ptr);
        let Named { what, picture, .. } = named;
        if named.icon {
            self.error(
                f,
                &ptr,
                true,
                "tilekit::picture-and-icon",
                format!("{what} names both a library `icon` and a `picture`"),
            )
            .hint = Some("keep one: `picture` draws your file, `icon` one of the library's".into());
        }
        let dir = &self.files[f].dir;
        if !on_disk(dir) {
            return;
        }
        let path = dir.join(picture);
        let problem = if std::fs::metadata(&path).is_err() {
            format!("there is no file `{}`", path.display())
        } else {
            match crate::picture::read(&path) {
                Ok(_) => return,
                Err(e) => format!("`{}`: {e}", path.display()),
            }
        };
        self.error(
            f,
            &ptr,
            false,
            "tilekit::picture",
            format!("{what}: the picture `{picture}` cannot be used: {problem}"),
        )
        .hint = Some(format!(
            "a picture is a PNG or an SVG file of at most {} MB and {} pixels a side, its path relative to the definitions file's folder",
            crate::picture::MAX_PICTURE_BYTES / 1_000_000,
            crate::picture::MAX_PICTURE_SIDE
        ));
    }
}

/// Whether files relative to `dir` can be looked at: not for a file whose folder is not on disk
/// (the bundled copies). An empty folder is the working folder.
pub(super) fn on_disk(dir: &Path) -> bool {
    dir.as_os_str().is_empty() || dir.is_dir()
}

/// The declarations of a file that name a picture.
fn named_pictures(file: &crate::model::TileSetFile) -> Vec<Named<'_>> {
    let markers = file.markers.iter().enumerate().filter_map(|(i, m)| {
        Some(Named {
            ptr: format!("/marker/{i}"),
            what: format!("marker kind `{}`", m.id),
            picture: m.picture.as_deref()?,
            icon: m.icon.is_some(),
        })
    });
    let figures = file.figures.iter().enumerate().filter_map(|(i, g)| {
        Some(Named {
            ptr: format!("/figure/{i}"),
            what: format!("figure `{}`", g.id),
            picture: g.picture.as_deref()?,
            icon: false,
        })
    });
    let emblems = file.features.iter().enumerate().filter_map(|(i, k)| {
        let e = k.emblem.as_ref()?;
        Some(Named {
            ptr: format!("/feature/{i}/emblem"),
            what: format!("the emblem `{}` of `{}`", e.id, k.id),
            picture: e.picture.as_deref()?,
            icon: false,
        })
    });
    let sites = file.features.iter().enumerate().filter_map(|(i, k)| {
        let look = k.look.as_ref()?;
        Some(Named {
            ptr: format!("/feature/{i}/look"),
            what: format!("the look of `{}`", k.id),
            picture: look.picture.as_deref()?,
            icon: look.icon.is_some(),
        })
    });
    markers.chain(figures).chain(emblems).chain(sites).collect()
}
