//! The SVG chart of every win rate.

use super::stats::{first_seat_rate, subject_rate};
use super::{Config, GameSummary, Held, Kind, Rate};

/// The rows of the chart: a label and a rate.
fn chart_rows(configs: &[Config], results: &[(String, Vec<GameSummary>)]) -> Vec<(String, Rate)> {
    configs
        .iter()
        .zip(results)
        .map(|(c, (_, games))| match &c.kind {
            Kind::Baseline => (format!("{}: first seat", c.name), first_seat_rate(games)),
            Kind::HeadToHead { subject, .. } => {
                (format!("{}: {subject}", c.name), subject_rate(games))
            }
            // Ids only: the chart's text is laid out without fonts, so it stays ASCII.
            Kind::Holder { held } => {
                let what = match held {
                    Held::Augment(a) => a.slot().wire(),
                    Held::House(_) => "house rule",
                };
                (
                    format!("{} ({what}): holder", held.id()),
                    subject_rate(games),
                )
            }
        })
        .collect()
}

/// The SVG chart: one horizontal bar per win rate, from the 50% line to the rate (blue
/// above, orange below), its 95% interval as a whisker, and the 50% line. The x axis is
/// centred on 50% and zoomed to the widest interval (so that a few points of advantage
/// show). Drawn with plotters' SVG backend (text is laid out by its built-in estimate, so
/// no system fonts are needed).
pub(super) fn chart(
    configs: &[Config],
    results: &[(String, Vec<GameSummary>)],
) -> Result<String, String> {
    use plotters::prelude::*;

    let rows = chart_rows(configs, results);
    let n = rows.len();
    let row_px = if n > 8 { 30 } else { 46 };
    let height = 90 + row_px * n as u32;
    // Half the axis: the furthest whisker end from 50%, plus room for the label, in 5% steps.
    let reach = rows
        .iter()
        .map(|(_, r)| {
            let (lo, hi) = r.interval();
            (0.5 - lo).max(hi - 0.5)
        })
        .fold(0.0f64, f64::max);
    let half = ((reach + 0.06) / 0.05).ceil().clamp(2.0, 10.0) * 0.05;
    let (x0, x1) = (0.5 - half, 0.5 + half);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (820, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = ChartBuilder::on(&root)
            .caption("Win rates with 95% intervals", ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(290)
            .build_cartesian_2d(x0..x1, 0.0f64..n as f64)
            .map_err(|e| e.to_string())?;
        let labels: Vec<String> = rows.iter().map(|(l, _)| l.clone()).collect();
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(TRANSPARENT)
            .x_labels((2.0 * half / 0.05).round() as usize + 1)
            .x_label_formatter(&|x| format!("{:.0}%", x * 100.0))
            .x_desc("win rate")
            .y_labels(n * 2 + 1)
            .y_label_formatter(&|y| {
                // Labels sit at the middle of each bar (row i spans n-i-1 .. n-i).
                let k = (n as f64 - y - 0.5).round();
                if (n as f64 - y - 0.5 - k).abs() < 1e-6 && k >= 0.0 && (k as usize) < n {
                    labels[k as usize].clone()
                } else {
                    String::new()
                }
            })
            .draw()
            .map_err(|e| e.to_string())?;
        let blue = RGBColor(70, 110, 190);
        let orange = RGBColor(220, 130, 50);
        for (i, (_, rate)) in rows.iter().enumerate() {
            let top = n as f64 - i as f64 - 0.2;
            let bottom = n as f64 - i as f64 - 0.8;
            let middle = n as f64 - i as f64 - 0.5;
            let (lo, hi) = rate.interval();
            let value = rate.value().clamp(x0, x1);
            let colour = if value >= 0.5 { blue } else { orange };
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(0.5, bottom), (value, top)],
                    colour.mix(0.75).filled(),
                )))
                .map_err(|e| e.to_string())?;
            let (lo, hi) = (lo.max(x0), hi.min(x1));
            let whisker = [
                vec![(lo, middle), (hi, middle)],
                vec![(lo, middle - 0.15), (lo, middle + 0.15)],
                vec![(hi, middle - 0.15), (hi, middle + 0.15)],
            ];
            for line in whisker {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        line,
                        BLACK.stroke_width(2),
                    )))
                    .map_err(|e| e.to_string())?;
            }
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("{:.1}%", rate.value() * 100.0),
                    ((hi + 0.01).min(x1 - 0.045), middle + 0.1),
                    ("sans-serif", 13),
                )))
                .map_err(|e| e.to_string())?;
        }
        chart
            .draw_series(LineSeries::new(
                [(0.5, 0.0), (0.5, n as f64)],
                RED.stroke_width(1),
            ))
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}
