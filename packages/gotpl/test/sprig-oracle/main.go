// The sprig oracle: Go's own text/template with github.com/Masterminds/sprig/v3, run the
// way gotpl's differential test needs it. It reads one JSON array of cases on stdin,
// {"template": "...", "data": "<JSON text>"}, and writes one JSON outcome per line,
// {"kind": "ok"|"parse"|"exec", "output"|"message": "..."}.
//
// The clock is fixed (SPRIG_ORACLE_NOW, RFC 3339) and the local zone is UTC, so that time
// functions give the same answer every run. Where sprig reads the real clock inside a
// function (now, date of a non-time, ago, durationRound of a time), the function is
// replaced by the same code reading the fixed clock. Switchboard's documented choices are
// applied here too, so the comparison is against what Switchboard promises: no env,
// expandenv or getHostByName; Go's builtin slice; split returns a list.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"text/template"
	"time"

	sprig "github.com/Masterminds/sprig/v3"
)

type testCase struct {
	Template string `json:"template"`
	Data     string `json:"data"`
}

type outcome struct {
	Kind    string `json:"kind"`
	Output  string `json:"output,omitempty"`
	Message string `json:"message,omitempty"`
}

func funcs(clock time.Time) template.FuncMap {
	f := sprig.TxtFuncMap()
	for _, name := range []string{"env", "expandenv", "getHostByName", "slice"} {
		delete(f, name)
	}
	f["split"] = func(sep, orig string) []string { return strings.Split(orig, sep) }
	f["now"] = func() time.Time { return clock }
	dateInZone := f["dateInZone"].(func(string, interface{}, string) string)
	toTime := func(date interface{}) (time.Time, bool) {
		switch d := date.(type) {
		case time.Time:
			return d, true
		case *time.Time:
			return *d, true
		case int64:
			return time.Unix(d, 0), true
		case int:
			return time.Unix(int64(d), 0), true
		case int32:
			return time.Unix(int64(d), 0), true
		}
		return clock, false
	}
	inZone := func(layout string, date interface{}, zone string) string {
		if _, ok := toTime(date); !ok {
			date = clock
		}
		return dateInZone(layout, date, zone)
	}
	f["dateInZone"] = inZone
	f["date_in_zone"] = inZone
	f["date"] = func(layout string, date interface{}) string { return inZone(layout, date, "Local") }
	f["htmlDate"] = func(date interface{}) string { return inZone("2006-01-02", date, "Local") }
	f["htmlDateInZone"] = func(date interface{}, zone string) string { return inZone("2006-01-02", date, zone) }
	f["ago"] = func(date interface{}) string {
		t, _ := toTime(date)
		if _, isInt32 := date.(int32); isInt32 {
			t = clock
		}
		return clock.Sub(t).Round(time.Second).String()
	}
	durationRound := f["durationRound"].(func(interface{}) string)
	f["durationRound"] = func(d interface{}) string {
		if t, ok := d.(time.Time); ok {
			return durationRound(strconv.FormatInt(int64(clock.Sub(t)), 10) + "ns")
		}
		return durationRound(d)
	}
	return f
}

func run(fm template.FuncMap, c testCase) (o outcome) {
	var data interface{}
	if err := json.Unmarshal([]byte(c.Data), &data); err != nil {
		return outcome{Kind: "data", Message: err.Error()}
	}
	t, err := template.New("tpl").Funcs(fm).Option("missingkey=error").Parse(c.Template)
	if err != nil {
		return outcome{Kind: "parse", Message: err.Error()}
	}
	defer func() {
		if r := recover(); r != nil {
			o = outcome{Kind: "panic", Message: fmt.Sprint(r)}
		}
	}()
	var out strings.Builder
	if err := t.Execute(&out, data); err != nil {
		return outcome{Kind: "exec", Message: err.Error()}
	}
	return outcome{Kind: "ok", Output: out.String()}
}

func main() {
	time.Local = time.UTC
	clock, err := time.Parse(time.RFC3339Nano, os.Getenv("SPRIG_ORACLE_NOW"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "SPRIG_ORACLE_NOW must be an RFC 3339 time:", err)
		os.Exit(2)
	}
	var cases []testCase
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		fmt.Fprintln(os.Stderr, "stdin must be a JSON array of cases:", err)
		os.Exit(2)
	}
	fm := funcs(clock.UTC())
	w := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(w)
	for _, c := range cases {
		if err := enc.Encode(run(fm, c)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
