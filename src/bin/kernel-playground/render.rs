//! `render` and `export-python`: the scene drawn exactly as the page draws it (SVG or PNG), or
//! written as a Python script that rebuilds it with scikit-learn.

use super::args::settings;
use super::{columns, fitted_lab, in_file, read, read_test, refused};
use clap::ArgMatches;
use kernel_playground::core::data::files;
use kernel_playground::core::plane::Layout;
use kernel_playground::lab::playground::Playground;
use kernel_playground::lab::state::Settings;
use kernel_playground::views::{self, Cache};
use kernel_playground::Error;
use plotters::prelude::BitMapBackend;
use std::io::Write;
use std::path::PathBuf;

pub(super) fn render(args: &ArgMatches) -> Result<String, Error> {
    let width = *args.get_one::<u32>("width").expect("default");
    let height = *args.get_one::<u32>("height").expect("default");
    let out = args.get_one::<PathBuf>("out").expect("required");
    if !(64..=8192).contains(&width) || !(64..=8192).contains(&height) {
        return Err(Error::Parameter(
            "width and height must be between 64 and 8192".into(),
        ));
    }
    let view = views::view(args.get_one::<String>("view").expect("default"))?;
    let extension = out.extension().and_then(|e| e.to_str()).unwrap_or("");
    let extension = extension.to_ascii_lowercase();
    if extension != "svg" && extension != "png" {
        return Err(Error::Parameter("--out must end in .svg or .png".into()));
    }
    let at_grid = args
        .get_one::<String>("regions")
        .is_some_and(|r| r == "grid");
    if at_grid && (extension != "svg" || view.id() != "plane") {
        return Err(Error::Parameter(
            "--regions grid draws the plane view's SVG only".into(),
        ));
    }
    // A link or a scene file, else --data with the model flags (and --steps).
    let mut lab = if !args.contains_id("data") {
        let mut lab = scene_lab(args)?;
        lab.fit();
        refused(&mut lab)?;
        lab
    } else {
        fitted_lab(args)?
    };
    // A figure is drawn whole on the command line: a grid is computed to the end first.
    while view.work(&mut lab, 1000) {}
    // A chart's type is at least that of a plane picture as tall as it, as beside the plane
    // in the page.
    let layout = view.layout(width, height, Layout::new(height, height).font_px);
    let mut cache = Cache::default();
    let figure = cache.figure(view, &mut lab, &layout).clone();
    kernel_playground::draw::scene::load_system_font()?;
    if let (true, views::Figure::Plane(scene)) = (at_grid, &figure) {
        let svg = kernel_playground::draw::svg::plane_as_painted(
            scene,
            &layout,
            &lab.settings().layers(),
        )?;
        std::fs::write(out, svg)
            .map_err(|e| Error::Parameter(format!("cannot write {}: {e}", out.display())))?;
    } else if extension == "svg" {
        let svg = kernel_playground::draw::svg::document(width, height, |backend| {
            views::draw(backend, &figure, &layout, &lab)
        })?;
        std::fs::write(out, svg)
            .map_err(|e| Error::Parameter(format!("cannot write {}: {e}", out.display())))?;
    } else {
        // Drawn into memory and written here, so a write error names the path.
        let mut pixels = vec![0u8; width as usize * height as usize * 3];
        views::draw(
            BitMapBackend::with_buffer(&mut pixels, (width, height)),
            &figure,
            &layout,
            &lab,
        )?;
        let mut png = Vec::new();
        let mut encoder = png::Encoder::new(&mut png, width, height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder
            .write_header()
            .and_then(|mut w| w.write_image_data(&pixels))
            .map_err(|e| Error::Draw(e.to_string()))?;
        std::fs::write(out, png)
            .map_err(|e| Error::Parameter(format!("cannot write {}: {e}", out.display())))?;
    }
    Ok(format!("wrote {}", out.display()))
}

/// The scene `export-python` writes: a link's or a scene file's as the page opens them, or
/// `--data` (with `--test`'s points held out) under the model flags.
pub(super) fn scene_lab(args: &ArgMatches) -> Result<Playground, Error> {
    let hash = if let Some(link) = args.get_one::<String>("link") {
        only_the_scene(args, "--link")?;
        link.split_once('#')
            .map_or(link.as_str(), |(_, hash)| hash)
            .to_string()
    } else if let Some(path) = args.get_one::<PathBuf>("scene") {
        only_the_scene(args, "--scene")?;
        let text = String::from_utf8(read(path)?)
            .map_err(|_| Error::Parameter(format!("{}: not UTF-8 text", path.display())))?;
        let (settings, (data, test), warnings) =
            Settings::from_scene_json(&text).map_err(|e| in_file(path, e))?;
        warn(&warnings);
        settings.to_hash(Some((&data, &test)))
    } else {
        let Some(path) = args.get_one::<PathBuf>("data") else {
            return Err(Error::Parameter(
                "give the scene: --data FILE (with the model flags), --link or --scene".into(),
            ));
        };
        let settings = settings(args)?;
        let mut data = files::read_for(settings.task, &read(path)?, columns(args)?.as_deref())
            .map_err(|e| in_file(path, e))?
            .data;
        let mut test = vec![false; data.len()];
        if let Some(path) = args.get_one::<PathBuf>("test") {
            let held = read_test(args, path, &data)?;
            for i in 0..held.len() {
                let written = held.written.get(i).cloned().flatten();
                data.push_written(held.points[i], held.labels[i], written)?;
                test.push(true);
            }
        }
        settings.to_hash(Some((&data, &test)))
    };
    let lab = Playground::open(&hash).map_err(|refusal| Error::Parameter(refusal.to_string()))?;
    warn(&lab.warnings);
    Ok(lab)
}

/// A link or a scene file carries every setting: a model flag beside it is refused rather
/// than silently ignored.
fn only_the_scene(args: &ArgMatches, source: &str) -> Result<(), Error> {
    let given: Vec<String> = args
        .ids()
        .map(|id| id.as_str())
        .filter(|id| {
            !matches!(
                *id,
                "link" | "scene" | "out" | "view" | "width" | "height" | "regions"
            )
        })
        .filter(|id| args.value_source(id) == Some(clap::parser::ValueSource::CommandLine))
        .map(|id| format!("--{}", id.to_ascii_lowercase()))
        .collect();
    match given.as_slice() {
        [] => Ok(()),
        flags => Err(Error::Parameter(format!(
            "{source} carries every setting: drop {}",
            flags.join(", ")
        ))),
    }
}

/// What a scene's reading left out, one line each on the standard error.
fn warn(warnings: &[String]) {
    for warning in warnings {
        let _ = writeln!(std::io::stderr(), "warning: {warning}");
    }
}

pub(super) fn export_python(args: &ArgMatches) -> Result<String, Error> {
    let script = kernel_playground::draw::python::script(&scene_lab(args)?);
    match args.get_one::<PathBuf>("out") {
        Some(out) => {
            std::fs::write(out, script)
                .map_err(|e| Error::Parameter(format!("cannot write {}: {e}", out.display())))?;
            Ok(format!("wrote {}", out.display()))
        }
        None => Ok(script.trim_end().to_string()),
    }
}
