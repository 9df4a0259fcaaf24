package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/linbis/linbis/frontend"
)

var completionCmd = &cli.Command{
	Name:      "completion",
	Usage:     "print a shell completion script: bash, zsh or fish",
	ArgsUsage: "bash|zsh|fish",
	Description: "Load it in the shell's start-up file, e.g.\n" +
		"  bash: source <(linbis completion bash)\n" +
		"  zsh:  source <(linbis completion zsh)\n" +
		"  fish: linbis completion fish | source",
	Action: runCompletion,
}

func runCompletion(c *cli.Context) error {
	args, err := operands(c, 1, 1)
	if err != nil {
		return err
	}
	w := c.App.Writer
	switch args[0] {
	case "bash":
		_, err = fmt.Fprint(w, bashCompletion(c.App))
	case "zsh":
		// zsh runs bash completion functions through bashcompinit.
		_, err = fmt.Fprint(w, "autoload -U +X bashcompinit && bashcompinit\n"+bashCompletion(c.App))
	case "fish":
		_, err = fmt.Fprint(w, fishCompletion(c.App))
	default:
		err = fmt.Errorf("completion: unknown shell %q: expected bash, zsh or fish", args[0])
	}
	return err
}

// modelVerbs take a bundled model's name as their argument.
var modelVerbs = map[string]bool{"compile": true, "verify": true, "progress": true, "show": true}

// fishCompletion returns fish completions made from the table of verbs,
// as bashCompletion. (urfave/cli's ToFishCompletion recurses without end
// once its help command has been set up twice in one process.)
func fishCompletion(app *cli.App) string {
	var b strings.Builder
	b.WriteString("# fish completion for linbis (linbis completion fish)\n")
	for _, cmd := range app.Commands {
		if cmd.Name == "help" {
			continue
		}
		fmt.Fprintf(&b, "complete -c linbis -n __fish_use_subcommand -f -a %s -d %s\n", cmd.Name, fishQuote(cmd.Usage))
		cond := "'__fish_seen_subcommand_from " + cmd.Name + "'"
		seen := map[string]bool{}
		for _, f := range cmd.Flags {
			line := "complete -c linbis -n " + cond
			for _, n := range f.Names() {
				if seen[n] {
					continue
				}
				seen[n] = true
				if len(n) == 1 {
					line += " -s " + n
				} else {
					line += " -l " + n
				}
			}
			if df, ok := f.(cli.DocGenerationFlag); ok {
				if df.TakesValue() {
					line += " -r"
				}
				line += " -d " + fishQuote(df.GetUsage())
			}
			b.WriteString(line + "\n")
		}
		if modelVerbs[cmd.Name] {
			fmt.Fprintf(&b, "complete -c linbis -n %s -a %s\n", cond, fishQuote(strings.Join(frontend.Examples(), " ")))
		}
	}
	return b.String()
}

func fishQuote(s string) string {
	if i := strings.Index(s, " ("); i > 0 && len(s) > 80 {
		s = s[:i] // the first clause is description enough
	}
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`, "`", "").Replace(s) + "'"
}

// bashCompletion returns a bash completion function made from the table
// of verbs: verbs first, then each verb's flags after "-", bundled model
// names for the verbs that take a model, and file names.
func bashCompletion(app *cli.App) string {
	var verbs []string
	var cases strings.Builder
	for _, cmd := range app.Commands {
		verbs = append(verbs, cmd.Name)
		var flags []string
		seen := map[string]bool{}
		for _, f := range append([]cli.Flag{cli.HelpFlag}, cmd.Flags...) {
			for _, n := range f.Names() {
				if seen[n] {
					continue
				}
				seen[n] = true
				if len(n) == 1 {
					flags = append(flags, "-"+n)
				} else {
					flags = append(flags, "--"+n)
				}
			}
		}
		words := ""
		if modelVerbs[cmd.Name] {
			words = strings.Join(frontend.Examples(), " ")
		}
		fmt.Fprintf(&cases, "    %s) flags=%q; words=%q ;;\n", cmd.Name, strings.Join(flags, " "), words)
	}
	sort.Strings(verbs)
	return fmt.Sprintf(`# bash completion for linbis (linbis completion bash)
_linbis() {
  local cur=${COMP_WORDS[COMP_CWORD]} verb="" w flags="" words=""
  for w in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case $w in -*) ;; *) verb=$w; break ;; esac
  done
  case $verb in
    "") COMPREPLY=($(compgen -W "%s --help --version" -- "$cur")); return ;;
%s  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$words" -- "$cur") $(compgen -f -- "$cur"))
  fi
}
complete -o default -F _linbis linbis
`, strings.Join(verbs, " "), cases.String())
}
