package main

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// headlessChromium returns a headless Chromium command with args, or
// false when the machine has no chromium (.ci/run installs Debian's).
func headlessChromium(t *testing.T, args ...string) (*exec.Cmd, bool) {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		return nil, false
	}
	return exec.Command(bin, append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir()}, args...)...), true
}

// The window of the rendering tests: a laptop screen.
const windowW, windowH = 1400, 900

// probeScript measures, in the rendered page, what a reader of the
// history's page sees: the widths of the two drawings, which one the check
// box shows, and whether the stuck operation's label lies in the window,
// on top of everything drawn there. It writes them into the page as lines
// "name value" for --dump-dom.
const probeScript = `<script>
const out = [];
const rect = el => el.getBoundingClientRect();
const shown = sel => getComputedStyle(document.querySelector(sel)).display !== "none";
const box = document.getElementById("by-order");
out.push("order-width " + rect(document.querySelector(".chart.by-order .scroll svg")).width);
out.push("order-shown " + shown(".chart.by-order"), "time-shown " + shown(".chart.by-time"));
box.click();
out.push("clicked-order-shown " + shown(".chart.by-order"), "clicked-time-shown " + shown(".chart.by-time"));
out.push("time-width " + rect(document.querySelector(".chart.by-time .scroll svg")).width);
box.click();
const label = document.querySelector(".chart.by-order text.callout");
const r = rect(label);
out.push("label " + [r.left, r.top, r.right, r.bottom].map(Math.round).join(" "));
out.push("label-on-top " + (document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2) === label));
document.body.insertAdjacentHTML("beforeend", "<pre id=probe>\n" + out.join("\n") + "\n</pre>");
</script>`

// TestHistoryHTMLInChromium renders the page of an 85-operation etcd log
// in headless Chromium: so long a log opens with time compressed to the
// order of events, which makes the drawing far narrower than one column per
// distinct time; the check box switches between the two; and the stuck
// operation's whole label is in the window, on top, and painted red in a
// screenshot of the page as shipped (no script).
func TestHistoryHTMLInChromium(t *testing.T) {
	needHistories(t)
	if _, ok := headlessChromium(t); !ok {
		t.Skip("chromium not installed: the history page is not checked in a browser (apt-get install chromium)")
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "h.html")
	// Porcupine's reading keeps the failed cas operations: 85 of them.
	code, _, errOut := linbis("history", "-q", filepath.Join(porcupineData, "jepsen", "etcd_000.log"), "--cas-fail", "false", "--html", page)
	require.Equal(t, 1, code, errOut)
	html, err := os.ReadFile(page)
	require.NoError(t, err)
	require.NotContains(t, string(html), "<script", "the page itself has no script; the probe is added to a copy")
	got := probePage(t, string(html), probeScript)
	size := fmt.Sprintf("--window-size=%d,%d", windowW, windowH)
	assert.Equal(t, "true", got["order-shown"], "a long log opens compressed")
	assert.Equal(t, "false", got["time-shown"])
	assert.Equal(t, "false", got["clicked-order-shown"], "the check box switches drawings")
	assert.Equal(t, "true", got["clicked-time-shown"])
	orderW, err := strconv.ParseFloat(got["order-width"], 64)
	require.NoError(t, err)
	timeW, err := strconv.ParseFloat(got["time-width"], 64)
	require.NoError(t, err)
	assert.Greater(t, timeW, 2500.0, "one column per distinct time: about 3 000 px for the log's 114 distinct times")
	assert.Less(t, orderW, timeW/2, "compressed to event order, the drawing is less than half as wide")

	var l [4]int // left, top, right, bottom of the stuck label
	_, err = fmt.Sscanf(got["label"], "%d %d %d %d", &l[0], &l[1], &l[2], &l[3])
	require.NoError(t, err)
	assert.True(t, l[0] >= 0 && l[2] <= windowW && l[1] >= 0 && l[3] <= windowH, "the stuck label %v is in the window without scrolling", l)
	assert.Equal(t, "true", got["label-on-top"], "no other drawing covers the stuck label")

	// The page as shipped, painted: the label's box holds red text.
	shot := filepath.Join(dir, "shot.png")
	cmd, _ := headlessChromium(t, size, "--screenshot="+shot, "file://"+page)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	f, err := os.Open(shot)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	assert.Greater(t, redPixels(img, image.Rect(l[0], l[1], l[2], l[3])), 20, "the stuck label is painted red in the screenshot")
	assert.Zero(t, redPixels(img, image.Rect(l[0], l[3]+40, l[2], l[3]+80)), "and only there: the rows below it are not red")
}

// probePage renders a copy of the page html with script added at the end
// of its body in headless Chromium, in the window of the rendering tests,
// and returns what the script wrote into a <pre id=probe> as lines
// "name value".
func probePage(t *testing.T, html, script string) map[string]string {
	t.Helper()
	probe := filepath.Join(t.TempDir(), "probe.html")
	require.NoError(t, os.WriteFile(probe, []byte(strings.Replace(html, "</body>", script+"</body>", 1)), 0o644))
	cmd, _ := headlessChromium(t, fmt.Sprintf("--window-size=%d,%d", windowW, windowH), "--dump-dom", "file://"+probe)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	m := regexp.MustCompile(`(?s)<pre id="probe">\n?(.*?)\n?</pre>`).FindSubmatch(dom)
	require.NotNil(t, m, "the probe ran: %s", stderr.String())
	got := map[string]string{}
	for _, line := range strings.Split(string(m[1]), "\n") {
		name, value, _ := strings.Cut(line, " ")
		got[name] = value
	}
	t.Logf("rendered: %v", got)
	return got
}

// redPixels counts the pixels of r in img that are the red of the page's
// failure text (#cf222e), give or take anti-aliasing.
func redPixels(img image.Image, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if cr>>8 > 150 && cg>>8 < 110 && cb>>8 < 110 {
				n++
			}
		}
	}
	return n
}
