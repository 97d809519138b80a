//! Inline SVG plots for the report: line and scatter plots with axes,
//! ticks, labels and reference lines, and bar charts. Non-finite values are
//! left out.

use super::esc;

/// A plot's size in pixels (before its legend).
#[derive(Clone, Copy, Debug)]
pub struct Size {
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

/// A full-width plot.
pub const WIDE: Size = Size { width: 640.0, height: 260.0 };
/// A small plot, several to a row.
pub const SMALL: Size = Size { width: 380.0, height: 200.0 };
/// The series' colours, in order.
pub const PALETTE: [&str; 8] = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"];
/// Room left of the plot area at least (tick labels, y label).
const LEFT: f64 = 64.0;
/// Room the rotated y label takes at the left edge.
const Y_LABEL_ROOM: f64 = 22.0;
/// Width of a tick label's character in pixels: a digit of the plots'
/// 11 px sans-serif (the report's style sheet), rounded up.
const CHAR_WIDTH: f64 = 7.0;
/// Gap between a tick mark and its label.
const LABEL_GAP: f64 = 2.0;
/// Room right of the plot area.
const RIGHT: f64 = 16.0;
/// Room above the plot area (the title).
const TOP: f64 = 26.0;
/// Room below the plot area (tick labels, x label).
const BOTTOM: f64 = 40.0;
/// Height of a legend row.
const LEGEND_ROW: f64 = 16.0;
/// Ticks wanted per axis (about).
const TICKS_WANTED: f64 = 5.0;
/// Ticks drawn per axis at most.
const MAX_TICKS: usize = 50;
/// The step of the ticks is one of these times a power of ten.
const NICE_STEPS: [f64; 4] = [1.0, 2.0, 5.0, 10.0];
/// Decimals shown on tick labels at most.
const MAX_DECIMALS: i32 = 6;
/// Length of a tick mark.
const TICK_LENGTH: f64 = 4.0;
/// Radius of a scatter dot.
const DOT_RADIUS: f64 = 2.5;
/// Opacity of an interval band.
const BAND_OPACITY: f64 = 0.2;
/// Width of a bar as a share of its slot.
const BAR_SHARE: f64 = 0.7;
/// Baseline offset of a text from its anchor, in pixels.
const TEXT_DROP: f64 = 12.0;

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mark {
    /// A polyline through the points.
    Line,
    /// A dot at each point.
    Dots,
}

/// One named series of a plot.
#[derive(Clone, Debug)]
pub struct Series {
    /// Its legend entry.
    pub name: String,
    /// How it is drawn.
    pub mark: Mark,
    /// Its `(x, y)` points.
    pub points: Vec<(f64, f64)>,
    /// An interval band `(x, low, high)` drawn under it (may be empty).
    pub band: Vec<(f64, f64, f64)>,
}

impl Series {
    /// A line without a band.
    pub fn line(name: &str, points: Vec<(f64, f64)>) -> Self {
        Series { name: name.to_string(), mark: Mark::Line, points, band: Vec::new() }
    }

    /// Dots without a band.
    pub fn dots(name: &str, points: Vec<(f64, f64)>) -> Self {
        Series { name: name.to_string(), mark: Mark::Dots, points, band: Vec::new() }
    }
}

/// A dashed horizontal reference line.
#[derive(Clone, Debug)]
pub struct Rule {
    /// Where.
    pub y: f64,
    /// Its label (may be empty).
    pub label: String,
}

/// A line or scatter plot.
#[derive(Clone, Debug)]
pub struct Plot {
    /// Title above the plot.
    pub title: String,
    /// Label of the x axis.
    pub x_label: String,
    /// Label of the y axis.
    pub y_label: String,
    /// Size in pixels.
    pub size: Size,
    /// Whole-number x ticks only.
    pub integer_x: bool,
    /// The series (a legend when more than one).
    pub series: Vec<Series>,
    /// Horizontal reference lines.
    pub rules: Vec<Rule>,
    /// Points with `|y|` at or beyond this are drawn hollow on the top
    /// or bottom edge, and the y axis spans the others (for scores of
    /// proven results far beyond every evaluation).
    pub edge_beyond: Option<f64>,
}

/// A bar chart of labelled values from 0.
#[derive(Clone, Debug)]
pub struct Bars {
    /// Title above the chart.
    pub title: String,
    /// Label of the y axis.
    pub y_label: String,
    /// The bars' labels.
    pub labels: Vec<String>,
    /// The bars' values.
    pub values: Vec<f64>,
    /// Size in pixels.
    pub size: Size,
}

/// At most `max` of `points`, evenly spaced, the first and last included.
pub fn thin<T: Copy>(points: &[T], max: usize) -> Vec<T> {
    if points.len() <= max || max < 2 {
        return points.to_vec();
    }
    (0..max).map(|i| points[i * (points.len() - 1) / (max - 1)]).collect()
}

/// An axis: its range, rounded out to whole ticks.
#[derive(Clone, Copy, Debug)]
struct Axis {
    lo: f64,
    hi: f64,
    step: f64,
}

impl Axis {
    /// The axis spanning the finite `values`, or `None` if there are none.
    fn new(values: impl Iterator<Item = f64>, integer: bool) -> Option<Axis> {
        let (mut lo, mut hi) = values
            .filter(|v| v.is_finite())
            .fold(None, |r: Option<(f64, f64)>, v| Some(r.map_or((v, v), |(a, b)| (a.min(v), b.max(v)))))?;
        if hi - lo <= f64::EPSILON * hi.abs().max(lo.abs()) {
            let pad = if lo == 0.0 { 1.0 } else { lo.abs() / 2.0 };
            (lo, hi) = (lo - pad, hi + pad);
        }
        let rough = (hi - lo) / TICKS_WANTED;
        let power = 10f64.powf(rough.log10().floor());
        let mut step = NICE_STEPS.iter().map(|s| s * power).find(|&s| s >= rough).unwrap_or(rough);
        if integer {
            step = step.max(1.0).round();
        }
        Some(Axis { lo: (lo / step).floor() * step, hi: (hi / step).ceil() * step, step })
    }

    /// The tick values.
    fn ticks(&self) -> Vec<f64> {
        let n = (((self.hi - self.lo) / self.step).round() as usize).min(MAX_TICKS);
        (0..=n).map(|i| self.lo + i as f64 * self.step).collect()
    }

    /// A tick's label, with as many decimals as the step needs.
    fn label(&self, v: f64) -> String {
        let decimals = (-self.step.log10().floor()).clamp(0.0, f64::from(MAX_DECIMALS)) as usize;
        let v = if v.abs() < self.step * f64::EPSILON { 0.0 } else { v };
        format!("{v:.decimals$}")
    }

    /// Where `v` falls between the pixels `from` (at `lo`) and `to` (at `hi`).
    fn map(&self, v: f64, from: f64, to: f64) -> f64 {
        from + (v - self.lo) / (self.hi - self.lo) * (to - from)
    }
}

/// The plot area's edges in pixels.
#[derive(Clone, Copy, Debug)]
struct Area {
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
}

impl Area {
    /// The plot area of a plot of `size` whose y axis is `y`: the margin
    /// on the left grows to hold the longest tick label beside the y label.
    fn new(size: Size, y: Option<&Axis>) -> Area {
        let widest = y.map_or(0, |axis| axis.ticks().iter().map(|&t| axis.label(t).chars().count()).max().unwrap_or(0));
        let left = LEFT.max(Y_LABEL_ROOM + TICK_LENGTH + LABEL_GAP + widest as f64 * CHAR_WIDTH);
        Area { x0: left, x1: size.width - RIGHT, y0: TOP, y1: size.height - BOTTOM }
    }
}

/// The opening `<svg>` tag and the title.
fn open(title: &str, width: f64, height: f64) -> String {
    format!(
        "<svg class=\"plot\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" \
         role=\"img\" aria-label=\"{t}\">\n<text x=\"{:.1}\" y=\"16\" text-anchor=\"middle\" \
         font-weight=\"bold\">{t}</text>\n",
        width / 2.0,
        t = esc(title)
    )
}

/// The axis labels of a plot area.
fn axis_labels(x_label: &str, y_label: &str, size: Size, area: Area) -> String {
    let Area { x0, x1, y0, y1 } = area;
    format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n\
         <text transform=\"translate(14 {:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>\n",
        (x0 + x1) / 2.0,
        size.height - 6.0,
        esc(x_label),
        (y0 + y1) / 2.0,
        esc(y_label)
    )
}

/// The y ticks, their labels and light grid lines across the plot area.
fn y_ticks(axis: &Axis, area: Area) -> String {
    let Area { x0, x1, y0, y1 } = area;
    let mut out = String::new();
    for t in axis.ticks() {
        let py = axis.map(t, y1, y0);
        out += &format!(
            "<line x1=\"{x0:.1}\" y1=\"{py:.1}\" x2=\"{x1:.1}\" y2=\"{py:.1}\" stroke=\"#eee\"/>\n\
             <line x1=\"{:.1}\" y1=\"{py:.1}\" x2=\"{x0:.1}\" y2=\"{py:.1}\" stroke=\"#666\"/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n",
            x0 - TICK_LENGTH,
            x0 - TICK_LENGTH - LABEL_GAP,
            py + TEXT_DROP / 3.0,
            axis.label(t)
        );
    }
    out
}

impl Plot {
    /// The plot as an `<svg>` element.
    pub fn svg(&self) -> String {
        let legend = if self.series.len() > 1 { self.series.len() } else { 0 };
        let height = self.size.height + legend as f64 * LEGEND_ROW;
        let mut out = open(&self.title, self.size.width, height);
        let xs = self.series.iter().flat_map(|s| s.points.iter().map(|p| p.0).chain(s.band.iter().map(|b| b.0)));
        let inside = |y: f64| self.edge_beyond.is_none_or(|edge| y.abs() < edge);
        let ys = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.1).chain(s.band.iter().flat_map(|b| [b.1, b.2])))
            .filter(|&y| inside(y));
        let has_points = self.series.iter().any(|s| s.points.iter().any(|p| p.0.is_finite() && p.1.is_finite()));
        let axes = Axis::new(xs, self.integer_x).zip(Axis::new(ys.chain(self.rules.iter().map(|r| r.y)), false));
        let area = Area::new(self.size, axes.as_ref().map(|(_, ay)| ay));
        let Area { x0, x1, y0, y1 } = area;
        out += &format!(
            "<rect x=\"{x0:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"#999\"/>\n",
            x1 - x0,
            y1 - y0
        );
        out += &axis_labels(&self.x_label, &self.y_label, self.size, area);
        match axes {
            Some((ax, ay)) if has_points => {
                out += &y_ticks(&ay, area);
                for t in ax.ticks() {
                    let px = ax.map(t, x0, x1);
                    out += &format!(
                        "<line x1=\"{px:.1}\" y1=\"{y1:.1}\" x2=\"{px:.1}\" y2=\"{:.1}\" stroke=\"#666\"/>\n\
                         <text x=\"{px:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n",
                        y1 + TICK_LENGTH,
                        y1 + TICK_LENGTH + TEXT_DROP,
                        ax.label(t)
                    );
                }
                for rule in &self.rules {
                    let py = ay.map(rule.y, y1, y0);
                    out += &format!(
                        "<line x1=\"{x0:.1}\" y1=\"{py:.1}\" x2=\"{x1:.1}\" y2=\"{py:.1}\" stroke=\"#555\" \
                         stroke-dasharray=\"4 3\"/>\n"
                    );
                    if !rule.label.is_empty() {
                        out += &format!(
                            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"#555\">{}</text>\n",
                            x1 - 2.0,
                            py - 3.0,
                            esc(&rule.label)
                        );
                    }
                }
                let at = |x: f64, y: f64| {
                    let py = if inside(y) {
                        ay.map(y, y1, y0)
                    } else if y > 0.0 {
                        y0
                    } else {
                        y1
                    };
                    (ax.map(x, x0, x1), py)
                };
                for (k, s) in self.series.iter().enumerate() {
                    out += &series_svg(s, PALETTE[k % PALETTE.len()], &at, &|y| !inside(y));
                }
            }
            _ => {
                out += &format!(
                    "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#888\">\
                     no finite values yet</text>\n",
                    (x0 + x1) / 2.0,
                    (y0 + y1) / 2.0
                );
            }
        }
        if legend > 0 {
            for (k, s) in self.series.iter().enumerate() {
                let y = self.size.height + k as f64 * LEGEND_ROW;
                out += &format!(
                    "<rect x=\"{x0:.1}\" y=\"{:.1}\" width=\"10\" height=\"10\" fill=\"{}\"/>\n\
                     <text x=\"{:.1}\" y=\"{:.1}\">{}</text>\n",
                    y,
                    PALETTE[k % PALETTE.len()],
                    x0 + 14.0,
                    y + TEXT_DROP * 0.8,
                    esc(&s.name)
                );
            }
        }
        out += "</svg>\n";
        out
    }
}

/// One series' band and marks in `color`; `at` maps data to pixels;
/// dots at a `y` that is `on_edge` are drawn hollow.
fn series_svg(s: &Series, color: &str, at: &dyn Fn(f64, f64) -> (f64, f64), on_edge: &dyn Fn(f64) -> bool) -> String {
    let mut out = String::new();
    let band: Vec<&(f64, f64, f64)> =
        s.band.iter().filter(|b| b.0.is_finite() && b.1.is_finite() && b.2.is_finite()).collect();
    if band.len() > 1 {
        let upper = band.iter().map(|b| at(b.0, b.2));
        let lower = band.iter().rev().map(|b| at(b.0, b.1));
        let points: Vec<String> = upper.chain(lower).map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        out += &format!(
            "<polygon points=\"{}\" fill=\"{color}\" fill-opacity=\"{BAND_OPACITY}\" stroke=\"none\"/>\n",
            points.join(" ")
        );
    }
    let finite = s.points.iter().filter(|p| p.0.is_finite() && p.1.is_finite());
    match s.mark {
        Mark::Line => {
            let points: Vec<String> = finite.map(|&(x, y)| at(x, y)).map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
            if points.len() == 1 {
                let (x, y) = points[0].split_once(',').unwrap_or(("0", "0"));
                out += &format!("<circle cx=\"{x}\" cy=\"{y}\" r=\"{DOT_RADIUS}\" fill=\"{color}\"/>\n");
            } else if !points.is_empty() {
                out += &format!(
                    "<polyline points=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"1.5\"/>\n",
                    points.join(" ")
                );
            }
        }
        Mark::Dots => {
            for &(x, y) in finite {
                let (px, py) = at(x, y);
                let fill =
                    if on_edge(y) { format!("fill=\"none\" stroke=\"{color}\"") } else { format!("fill=\"{color}\"") };
                out += &format!("<circle cx=\"{px:.1}\" cy=\"{py:.1}\" r=\"{DOT_RADIUS}\" {fill}/>\n");
            }
        }
    }
    out
}

impl Bars {
    /// The chart as an `<svg>` element.
    pub fn svg(&self) -> String {
        let size = self.size;
        // From 0 to at least 1, so that bars of zeros stand on an axis.
        let axis = Axis::new(self.values.iter().copied().chain([0.0, 1.0]), true).unwrap_or(Axis {
            lo: 0.0,
            hi: 1.0,
            step: 1.0,
        });
        let area = Area::new(size, Some(&axis));
        let Area { x0, x1, y0, y1 } = area;
        let mut out = open(&self.title, size.width, size.height);
        out += &format!(
            "<rect x=\"{x0:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"#999\"/>\n",
            x1 - x0,
            y1 - y0
        );
        out += &axis_labels("", &self.y_label, size, area);
        out += &y_ticks(&axis, area);
        let base = axis.map(0.0, y1, y0);
        let slot = (x1 - x0) / self.values.len().max(1) as f64;
        for (k, (label, &value)) in self.labels.iter().zip(&self.values).enumerate() {
            let cx = x0 + (k as f64 + 0.5) * slot;
            let end = if value.is_finite() { axis.map(value, y1, y0) } else { base };
            let top = end.min(base);
            let width = slot * BAR_SHARE;
            out += &format!(
                "<rect x=\"{:.1}\" y=\"{top:.1}\" width=\"{width:.1}\" height=\"{:.1}\" fill=\"{}\"/>\n\
                 <text x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{value}</text>\n\
                 <text x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n",
                cx - width / 2.0,
                (end - base).abs(),
                PALETTE[0],
                top - 3.0,
                y1 + TICK_LENGTH + TEXT_DROP,
                esc(label)
            );
        }
        out += "</svg>\n";
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The left edge of the plot area and the y tick labels of an SVG plot.
    fn area_and_labels(svg: &str) -> (f64, Vec<String>) {
        let x0: f64 = svg.split("<rect x=\"").nth(1).and_then(|r| r.split('"').next()).unwrap().parse().unwrap();
        let labels =
            svg.split("text-anchor=\"end\">").skip(1).map(|t| t.split('<').next().unwrap().to_string()).collect();
        (x0, labels)
    }

    #[test]
    fn long_tick_labels_stay_clear_of_the_y_label() {
        let tiny = |scale: f64| Plot {
            title: "t".into(),
            x_label: "ply".into(),
            y_label: "CPU s".into(),
            size: SMALL,
            integer_x: true,
            series: vec![Series::line("a", (1..=9).map(|i| (f64::from(i), f64::from(i) * scale)).collect())],
            rules: Vec::new(),
            edge_beyond: None,
        };
        for scale in [1.0, 0.00002, -123_456.0] {
            let (x0, labels) = area_and_labels(&tiny(scale).svg());
            assert!(labels.len() >= 3, "{labels:?}");
            for label in &labels {
                let start = x0 - TICK_LENGTH - LABEL_GAP - label.len() as f64 * CHAR_WIDTH;
                assert!(start >= Y_LABEL_ROOM, "scale {scale}: {label} starts at {start}, plot area at {x0}");
            }
        }
        // Short labels keep the usual margin.
        assert_eq!(area_and_labels(&tiny(1.0).svg()).0, LEFT);
    }

    #[test]
    fn bar_charts_make_room_for_their_ticks() {
        let bars = Bars {
            title: "b".into(),
            y_label: "games".into(),
            labels: vec!["LL".into(), "WW".into()],
            values: vec![1_000_000.0, 2.0],
            size: SMALL,
        };
        let (x0, labels) = area_and_labels(&bars.svg());
        let widest = labels.iter().map(String::len).max().unwrap();
        assert_eq!(widest, "1000000".len(), "{labels:?}");
        assert!(x0 - TICK_LENGTH - LABEL_GAP - widest as f64 * CHAR_WIDTH >= Y_LABEL_ROOM, "{x0}");
    }
}
