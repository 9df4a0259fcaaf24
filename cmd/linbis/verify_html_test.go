package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clipScript measures, in a rendered verify page, what a reader sees of
// the drawing: for the drawing shown and, after a click on the check box,
// the other one, how many bars there are and how many clip their label
// (each bar is a nested SVG); and whether the section that states the run
// (sizes, stages, verdicts) is laid out.
const clipScript = `<script>
const out = [];
const clipped = sel => {
  let all = 0, n = 0;
  for (const s of document.querySelectorAll(sel + " g > svg")) {
    all++;
    if (s.querySelector("text").getComputedTextLength() + 4 > s.width.baseVal.value) n++;
  }
  return all + "/" + n;
};
const shown = () => document.getElementById("by-order").checked ? ".chart.by-order" : ".chart.by-time";
const box = document.getElementById("by-order");
if (box) {
  out.push("shown " + clipped(shown()));
  box.click();
  out.push("other " + clipped(shown()));
}
const run = [...document.querySelectorAll("h2")].find(h => h.textContent.startsWith("the run"));
out.push("run " + (run !== undefined && run.nextElementSibling.offsetHeight > 0));
document.body.insertAdjacentHTML("beforeend", "<pre id=probe>\n" + out.join("\n") + "\n</pre>");
</script>`

// TestVerifyHTMLInChromium renders verify's pages in headless Chromium
// (issue 37 item 14): a failing run's timeline shows every label whole
// in its bar, in both drawings, and a passing run's page shows the run
// (sizes, stages, verdicts) with no drawing. Screenshots of both pages are
// left in the test's artifact directory (go test -artifacts).
func TestVerifyHTMLInChromium(t *testing.T) {
	if _, ok := headlessChromium(t); !ok {
		t.Skip("chromium not installed: the verify pages are not checked in a browser (apt-get install chromium)")
	}
	for _, c := range []struct {
		args  []string
		code  int
		drawn bool
	}{
		{[]string{"shann-queue"}, 1, true},
		{[]string{"treiber", "--ops", "1"}, 0, false},
	} {
		page := filepath.Join(t.TempDir(), c.args[0]+".html")
		code, _, errOut := linbis(append([]string{"verify", "-q", "--html", page}, c.args...)...)
		require.Equal(t, c.code, code, errOut)
		html, err := os.ReadFile(page)
		require.NoError(t, err)
		got := probePage(t, string(html), clipScript)
		assert.Equal(t, "true", got["run"], "%s: the run is stated", c.args[0])
		if c.drawn {
			for _, d := range []string{"shown", "other"} {
				var all, clipped int
				_, err := fmt.Sscanf(got[d], "%d/%d", &all, &clipped)
				require.NoError(t, err, "%s: %q", d, got[d])
				assert.Positive(t, all, "%s drawing has bars", d)
				assert.Zero(t, clipped, "%s drawing: no label clipped by its bar", d)
			}
		} else {
			assert.NotContains(t, got, "shown", "a passing run draws no timeline")
		}
		shot := filepath.Join(t.ArtifactDir(), c.args[0]+".png")
		cmd, _ := headlessChromium(t, fmt.Sprintf("--window-size=%d,%d", windowW, windowH), "--screenshot="+shot, "file://"+page)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, string(out))
		fi, err := os.Stat(shot)
		require.NoError(t, err)
		assert.Positive(t, fi.Size())
		t.Logf("screenshot: %s", shot)
	}
}
