/**
 * Hand-picked sprig cases: the corners of each group that generated inputs reach rarely.
 * A case without data gets the shared data (sprig-cases.ts). Data numbers stay
 * non-integer (Go decodes JSON numbers as float64).
 */
export const SPRIG_CURATED: ReadonlyArray<readonly [string, unknown?]> = [
  // strings
  ['{{ trim "  \\t x y \\n" }}|{{ trimAll "$-" "$-x$-" }}|{{ trimPrefix "ab" "abab" }}|{{ trimSuffix "" "x" }}'],
  ['{{ upper "straße ǆ İ" }}|{{ lower "ΣΑΣ İ" }}|{{ title "hello wORLD-foo_bar 9lives" }}|{{ untitle "Hello World" }}'],
  ['{{ repeat 0 "x" }}|{{ repeat -1 "x" }}'],
  ['{{ substr 1 3 "héllo" }}|{{ substr -1 2 "abc" }}|{{ substr 1 -1 "abc" }}|{{ substr 2 10 "abc" }}'],
  ['{{ substr 5 10 "abc" }}'],
  ['{{ substr 3 1 "abcdef" }}'],
  ['{{ trunc 3 "héllo" }}|{{ trunc -2 "hello" }}|{{ trunc -9 "hi" }}|{{ trunc 0 "x" }}'],
  ['{{ abbrev 5 "hello world" }}|{{ abbrev 3 "hello" }}|{{ abbrevboth 5 10 "1234567890abcdefghij" }}|{{ abbrevboth 1 4 "abcdefghi" }}'],
  ['{{ initials "first second  third" }}|{{ initials "ébène" }}|{{ nospace " a b\\tc\\n" }}|{{ nospace "é à" }}'],
  ['{{ wrap 5 "The quick brown fox jumps over" }}|{{ wrapWith 4 "<br>" "abcdefghij klm" }}|{{ wrap 0 "a b" }}'],
  ['{{ quote "a" 1 nil .n 2.5 true }}|{{ squote "a" 1 nil "b" }}|{{ cat "a" nil 1 (list 1 2) }}'],
  ['{{ indent 2 "a\\nb" }}|{{ nindent 4 "x" }}|{{ replace "" "-" "ab" }}|{{ plural "one" "many" 1 }} {{ plural "one" "many" 2 }}'],
  ['{{ snakecase "HTTPServer" }} {{ snakecase "simpleXMLParser2" }} {{ snakecase "a1b2" }} {{ snakecase "already_snake" }} {{ snakecase "Hello World" }}'],
  ['{{ kebabcase "FooBarBaz" }} {{ kebabcase "foo  bar" }} {{ camelcase "http_server" }} {{ camelcase "__a__b" }} {{ camelcase "x" }} {{ camelcase "--" }}'],
  ['{{ swapcase "Hello World ǅ" }}|{{ toString 1.5 }}|{{ toString nil }}|{{ toStrings (list 1 nil "a" 2.5) }}'],
  ['{{ split "," "a,b" }}|{{ splitList "" "héllo" }}|{{ splitn "," 2 "a,b,c" }}|{{ splitn "," 0 "a" }}|{{ splitn "" 2 "abc" }}'],
  [
    '{{ join "-" (list 1 nil "a") }}|{{ join "," "single" }}|{{ join "," nil }}|{{ sortAlpha (list "b" "A" "a" 10 9) }}|{{ sortAlpha "x" }}|{{ sortAlpha nil }}',
  ],
  ['{{ upper 1 }}'],
  ['{{ upper .f }}'],
  ['{{ repeat 2.5 "x" }}'],
  ['{{ repeat "2" "x" }}'],
  ['{{ repeat .f "x" }}'],
  ['{{ repeat nil "x" }}'],
  // math
  ['{{ add 40 2 }} {{ add }} {{ add "3" 1.9 true nil "0x10" "1_0" "0b11" "017" "0o17" "5.00" "5.5" }}'],
  ['{{ add1 -1 }} {{ sub 1 3 }} {{ mul 2 3 4 }} {{ div 7 2 }} {{ div -7 2 }} {{ mod -7 3 }} {{ mod 7 -3 }}'],
  ['{{ div 1 0 }}'],
  ['{{ mod 1 0 }}'],
  ['{{ max 1 5 3 }} {{ min 1 -5 3 }} {{ biggest "9" 2 }} {{ maxf 1.5 2 }} {{ minf 1.5 2.5 -0.5 }} {{ maxf "x" -1 }}'],
  ['{{ floor 1.5 }} {{ floor -1.5 }} {{ ceil 1.2 }} {{ ceil "2.1" }} {{ round 2.675 2 }} {{ round 1.5 0 }} {{ round -1.5 0 }} {{ round 1.25 1 0.3 }}'],
  ['{{ round 0.1 42 }} {{ round 1.005 2 }} {{ round 123.456 -1 }} {{ round 2.5 400 }} {{ round 1e-300 -300 }} {{ round 5.5 0 0.6 }}'],
  ['{{ addf 0.1 0.2 }} {{ subf 1 0.9 }} {{ mulf 1.1 1.1 }} {{ divf 1 3 }} {{ divf 2 3 }} {{ add1f 0.1 }} {{ addf }}'],
  ['{{ divf 1 0 }}'],
  ['{{ seq 3 }}|{{ seq -2 }}|{{ seq 2 5 }}|{{ seq 5 2 }}|{{ seq 0 2 10 }}|{{ seq 10 -3 1 }}|{{ seq 1 2 3 4 }}|{{ seq }}'],
  ['{{ until 3 }} {{ until -3 }} {{ until 0 }} {{ untilStep 0 10 3 }} {{ untilStep 10 0 -4 }} {{ untilStep 0 5 0 }}'],
  ['{{ mul 4294967296 4294967296 }} {{ add 9007199254740990 1 }} {{ sub -9007199254740991 0 }}'],
  // conversion
  ['{{ int "42" }} {{ int "4.2" }} {{ int "0x1F" }} {{ int "010" }} {{ int "1e3" }} {{ int 3.99 }} {{ int -3.99 }} {{ int true }} {{ int nil }} {{ int "x" }}'],
  [
    '{{ int64 "9" }} {{ float64 "1.5" }} {{ float64 "1e3" }} {{ float64 "0x1p-2" }} {{ float64 "inf" }} {{ float64 "x" }} {{ float64 true }} {{ float64 "1_0" }}',
  ],
  ['{{ atoi "42" }} {{ atoi "-7" }} {{ atoi "4.2" }} {{ atoi "" }} {{ atoi "+3" }} {{ atoi "0x10" }}'],
  ['{{ toDecimal "777" }} {{ toDecimal 17 }} {{ toDecimal "8" }} {{ toDecimal 1.5 }}'],
  // defaults and flow
  [
    '{{ default "d" "" }} {{ default "d" 0 }} {{ default "d" .e }} {{ default "d" .em }} {{ default "d" false }} {{ default "d" .n }} {{ default "d" "x" }} {{ default "d" }}',
  ],
  ['{{ empty 0 }} {{ empty .f }} {{ empty "" }} {{ empty .l }} {{ empty .m }} {{ empty nil }} {{ empty (now) }}'],
  ['{{ coalesce "" 0 nil "x" 1 }} {{ coalesce }} {{ all 1 "a" true }} {{ all 1 "" }} {{ any 0 "" nil }} {{ any 0 "a" }} {{ all }}'],
  ['{{ compact (list 0 1 "" "a" nil false true (list)) }}|{{ ternary "y" "n" true }}|{{ ternary "y" "n" false }}'],
  ['{{ compact "x" }}'],
  ['{{ compact nil }}'],
  ['{{ ternary 1 2 "yes" }}'],
  ['{{ ternary 1 2 .s }}'],
  ['{{ fail "boom" }}'],
  ['{{ toJson . }}|{{ toRawJson .m }}|{{ toJson nil }}|{{ toJson "a\\u2028\\u0008b" }}|{{ toJson 1e-7 }}|{{ toJson 1e21 }}|{{ toJson 123456789.5 }}'],
  ['{{ toPrettyJson .nested }}|{{ toPrettyJson .e }}|{{ toPrettyJson .em }}|{{ toPrettyJson (list (dict)) }}'],
  ['{{ (fromJson "{\\"a\\":[1,2]}").a }} {{ mustFromJson "[1]" }} {{ deepCopy .m }} {{ deepCopy nil }}'],
  // lists
  [
    '{{ list }} {{ list 1 "a" nil }} {{ tuple 1 2 }} {{ first .l }} {{ first .e }} {{ last .l }} {{ last .e }} {{ rest .l }} {{ rest .e }} {{ initial .l }} {{ initial .e }}',
  ],
  ['{{ first "abc" }}'],
  ['{{ first nil }}'],
  ['{{ mustFirst 1 }}'],
  [
    '{{ append .ls "z" }} {{ push .e 1 }} {{ prepend .ls 0 }} {{ concat .ls (list 1) .e }} {{ concat }} {{ reverse .l }} {{ uniq (list 1 1 "1" 2.5 2.5 nil nil) }}',
  ],
  ['{{ append "x" 1 }}'],
  ['{{ concat .ls 1 }}'],
  ['{{ without .ls "a" }} {{ without (list 1 2 3 1) 1 3 }} {{ has "a" .ls }} {{ has 1 (list 1.5) }} {{ has "a" nil }} {{ mustHas 1 (list 1) }}'],
  ['{{ has 1 "x" }}'],
  ['{{ mustSlice .ls 1 }} {{ mustSlice .ls 1 3 }} {{ mustSlice .ls }} {{ mustSlice .e 1 }} {{ mustSlice .ls "1" 2.5 }}'],
  ['{{ mustSlice .ls 3 1 }}'],
  ['{{ mustSlice "abc" 1 }}'],
  ['{{ chunk 2 (list 1 2 3 4 5) }} {{ chunk 3 .e }} {{ chunk 5 (list 1 2) }}'],
  ['{{ chunk 0 .ls }}'],
  ['{{ slice .ls 1 3 }} {{ slice "héllo" 0 3 }}'],
  // dicts
  ['{{ dict "a" 1 "b" }} {{ dict 1 2 nil 3 }} {{ dict }} {{ get .m "a" }} {{ get .m "zz" }} {{ get nil "a" }} {{ hasKey .m "c" }} {{ hasKey .m "zz" }}'],
  [
    '{{ $d := dict "a" 1 }}{{ $_ := set $d "b" 2 }}{{ $_ := unset $d "a" }}{{ $d }} {{ set (dict) "__proto__" 1 }} {{ (set (dict) "__proto__" "p").__proto__ }}',
  ],
  ['{{ set nil "a" 1 }}'],
  ['{{ get "x" "a" }}'],
  ['{{ pluck "a" (dict "a" 1) (dict "b" 2) (dict "a" 3) }} {{ keys .m (dict "z" 1) | sortAlpha }} {{ values (dict "b" 2 "a" 1) | sortAlpha }}'],
  ['{{ pick .m "a" "c" "zz" }} {{ omit .m "a" "d" }} {{ pick nil "a" }} {{ omit (dict "k" 1) }}'],
  [
    '{{ merge (dict "a" 1 "n" (dict "x" 1)) (dict "a" 2 "b" 3 "n" (dict "x" 2 "y" 3)) }} {{ mergeOverwrite (dict "a" 1 "n" (dict "x" 1)) (dict "a" 2 "b" 3 "n" (dict "x" 2 "y" 3)) }}',
  ],
  [
    '{{ merge (dict "a" "" "b" 0 "c" (list) "d" (list 1)) (dict "a" "x" "b" 5 "c" (list 9) "d" (list 2) "e" nil) }} {{ mergeOverwrite (dict "a" 1) (dict "a" nil) }} {{ merge nil (dict "a" 1) }}',
  ],
  ['{{ dig "nested" "x" "y" "def" . }} {{ dig "nested" "zz" "def" . }} {{ dig "a" "def" (dict "a" nil) }}'],
  ['{{ dig "a" "b" "def" (dict "a" 1) }}'],
  ['{{ dig "a" . }}'],
  // types
  ['{{ typeOf 1 }} {{ typeOf 1.5 }} {{ typeOf "s" }} {{ typeOf nil }} {{ typeOf .l }} {{ typeOf .m }} {{ typeOf true }} {{ typeOf now }}'],
  [
    '{{ kindOf 1 }} {{ kindOf 1.5 }} {{ kindOf "s" }} {{ kindOf nil }} {{ kindOf .l }} {{ kindOf .m }} {{ kindOf now }} {{ kindIs "map" .m }} {{ typeIs "string" "x" }} {{ typeIsLike "string" "x" }}',
  ],
  [
    '{{ deepEqual .l .l }} {{ deepEqual (list 1 2) (list 1 2) }} {{ deepEqual 1 "1" }} {{ deepEqual nil nil }} {{ deepEqual .m (deepCopy .m) }} {{ deepEqual (dict "a" 1) (dict "a" 2) }}',
  ],
  // regex
  [
    '{{ regexMatch "^[a-z]+$" "abc" }} {{ regexMatch "(" "x" }} {{ regexFind "[0-9]+" "ab123cd45" }} {{ regexFindAll "[0-9]" "a1b2c3" -1 }} {{ regexFindAll "[0-9]" "a1b2c3" 2 }} {{ regexFindAll "x" "abc" -1 }}',
  ],
  ['{{ regexFindAll "a*" "baaac" -1 }} {{ regexFindAll "" "héllo" -1 }} {{ regexFindAll "\\\\b" "ab cd" -1 }} {{ regexFindAll "a|" "aab" -1 }}'],
  [
    '{{ regexReplaceAll "a(x*)b" "-ab-axxb-" "${1}W" }} {{ regexReplaceAll "a(x*)b" "-ab-axxb-" "$1W" }} {{ regexReplaceAll "(?P<w>\\\\w+)" "hi you" "<$w>" }} {{ regexReplaceAll "x*" "abc" "-" }} {{ regexReplaceAll "a*" "baaac" "X" }}',
  ],
  [
    '{{ regexReplaceAllLiteral "a(x*)b" "-axb-" "$1" }} {{ regexReplaceAll "b" "abc" "$$" }} {{ regexReplaceAll "b" "abc" "${" }} {{ regexReplaceAll "(b)" "abc" "$01 $1a ${1}a" }}',
  ],
  [
    '{{ regexSplit "\\\\s+" "a b   c" -1 }} {{ regexSplit "," "a,b,c" 2 }} {{ regexSplit "x*" "axbc" -1 }} {{ regexSplit "," "" -1 }} {{ regexSplit "" "abc" -1 }} {{ regexSplit "," "a,b" 0 }}',
  ],
  ['{{ regexQuoteMeta "a.b*c[d]$^{}|?+()\\\\" }} {{ regexFind "(?i)HÉ" "xhé" }} {{ regexFind "\\\\pL+" "123héllo4" }} {{ regexFind "[[:upper:]]+" "abCDe" }}'],
  ['{{ regexFind "(" "x" }}'],
  ['{{ mustRegexFind "a)" "x" }}'],
  ['{{ regexReplaceAll "(a)\\\\1" "aa" "x" }}'],
  ['{{ mustRegexMatch "(?=x)" "x" }}'],
  ['{{ mustRegexMatch "(?<!x)y" "y" }}'],
  ['{{ regexSplit "[" "a" -1 }}'],
  ['{{ mustRegexFindAll "x{1001}" "x" -1 }}'],
  ['{{ regexMatch "(?P<n>a)(?P<n>b)" "ab" }} {{ mustRegexMatch "a**" "a" }}'],
  ['{{ mustRegexMatch "\\\\8" "a" }}'],
  // encoding and paths
  [
    '{{ b64enc "héllo" }} {{ b64dec "aMOpbGxv" }} {{ b64dec "aGVsbG8" }} {{ b64dec "a" }} {{ b64dec "aGVsbG8=extra" }} {{ b64dec "aGVs\\nbG8=" }} {{ b64dec "==" }}',
  ],
  ['{{ b32enc "héllo" }} {{ b32dec "NBSWY3DP" }} {{ b32dec "NBSWY3D" }} {{ b32dec "MY======" }} {{ b32dec "M=======" }} {{ b32dec "1" }}'],
  ['{{ sha1sum "abc" }} {{ sha256sum "" }} {{ adler32sum "Wikipedia" }} {{ adler32sum "" }}'],
  ['{{ sha512sum "abc" }}'],
  [
    '{{ base "/a/b/" }} {{ base "" }} {{ base "///" }} {{ dir "/a/b/c" }} {{ dir "a" }} {{ dir "/" }} {{ clean "a/../../b/./c//" }} {{ clean "" }} {{ ext "a/b.c/d" }} {{ ext "x.tar.gz" }} {{ isAbs "/x" }} {{ osBase "a/b" }}',
  ],
  // dates
  ['{{ now }}|{{ now | date "2006-01-02" }}|{{ htmlDate now }}|{{ now | unixEpoch }}|{{ now.Year }} {{ (now).Unix }}'],
  ['{{ date "Mon Jan _2 15:04:05.000000 MST 2006" now }}|{{ date "3:04:05 PM pm .999 ,000 __2 002 Z07:00 -07 -0700 Z0700" now }}'],
  [
    '{{ dateInZone "2006-01-02 15:04 MST -0700" now "America/New_York" }} {{ dateInZone "15:04 MST" now "Asia/Tokyo" }} {{ dateInZone "15:04 MST" now "Nope/Zone" }} {{ dateInZone "15:04 MST" now "" }}',
  ],
  ['{{ date "2006-01-02" 1700000000 }} {{ date "2006" "x" }} {{ htmlDateInZone 0 "Asia/Kolkata" }} {{ date "Jan" .f }}'],
  ['{{ dateModify "-1.5h" now }} {{ now | dateModify "bogus" }} {{ now | date_modify "24h" | date "Mon" }}'],
  ['{{ mustDateModify "5 minutes" now }}'],
  ['{{ dateModify "1h" "x" }}'],
  [
    '{{ toDate "2006-01-02" "2024-02-29" }} {{ toDate "2006-01-02 15:04" "2023-13-01 10:00" }} {{ toDate "02 Jan 06 15:04 MST" "05 Mar 24 09:30 PST" }} {{ toDate "2006-01-02T15:04:05Z07:00" "2021-06-15T08:30:00+02:00" }}',
  ],
  ['{{ mustToDate "2006-01-02" "24-01-01" }}'],
  [
    '{{ toDate "Jan _2 15:04:05.000" "Mar  5 14:07:09.123" }}|{{ toDate "Monday, 02-Jan-06 15:04:05 MST" "Tuesday, 05-Mar-24 14:07:09 UTC" }}|{{ toDate "3:04PM" "2:07PM" }}|{{ toDate "20060102150405" "20240305140709" }}',
  ],
  [
    '{{ toDate ".999 pm -0700" ".123 pm +0100" }}|{{ toDate "__2 002" " 5 065" }}|{{ toDate "Mon Jan 2 15:04:05 MST 2006" "Tue Mar 5 14:07:09 EST 2024" }}|{{ toDate "January 2, 2006" "March 5, 2024" }}',
  ],
  [
    '{{ toDate "-07:00:00 Z07" "+01:00:00 Z" }}|{{ toDate "02/01/06 03:04:05.0" "05/03/24 02:07:09.5" }}|{{ toDate "2006-01-02T15:04:05.999999999Z07:00" "2024-03-05T14:07:09.123456789Z" | date "05.000000000" }}',
  ],
  [
    '{{ toDate "Mon Jan 2 15:04:05 MST 2006" "Tue Mar 5 14:07:09 CET 2024" }}|{{ toDate "MST" "GMT+3" }}|{{ toDate "2006 MST" "2024 ChST" }}|{{ toDate "-0700" "+2500" }}',
  ],
  ['{{ mustToDate "2006-01-02" "2024-01-01 extra" }}'],
  ['{{ mustToDate "Jan 2 2006" "Foo 2 2024" }}'],
  ['{{ mustToDate "15:04" "25:00" }}'],
  [
    '{{ toDate "2006-01-02 15:04:05.000000" "2024-01-02 03:04:05.123456" | date "05.999999999" }} {{ toDate "Monday January 2 2006 3PM" "tuesday MARCH 5 2024 4PM" }}',
  ],
  [
    '{{ ago now }} {{ ago (now | dateModify "-90m") }} {{ ago "x" }} {{ duration "95" }} {{ duration "x" }} {{ duration 3.5 }} {{ durationRound "2h10m" }} {{ durationRound "-49h" }} {{ durationRound "400d" }}',
  ],
  [
    '{{ durationRound (now | dateModify "-8760h") }} {{ durationRound (toDate "2006" "2020") }} {{ durationRound "1.5s" }} {{ durationRound "999ms" }} {{ durationRound "" }}',
  ],
  ['{{ toJson now }} {{ toJson (toDate "2006-01-02 15:04:05.999" "2024-01-02 03:04:05.5") }} {{ now | typeOf }} {{ if now }}t{{ end }} {{ print now }}'],
  ['{{ now.Bogus }}'],
  [
    '{{ eq now now }} {{ eq now (now | dateModify "1s") }} {{ eq (semver "1.0.0") (semver "1.0.0") }} {{ $v := semver "1.0.0" }}{{ eq $v $v }} {{ ne now now }}',
  ],
  ['{{ eq now (semver "1.0.0") }}'],
  ['{{ eq now 1 }}'],
  ['{{ range now }}x{{ end }}'],
  ['{{ if now }}y{{ end }} {{ not now }} {{ and now 1 }}'],
  ['{{ len now }}'],
  ['{{ lt now now }}'],
  // versions and URLs
  [
    '{{ semver "v1.2.3-beta.1+b5" }} {{ (semver "1.2").Minor }} {{ (semver "1.2.3-rc.1").Prerelease }} {{ typeOf (semver "1.0.0") }} {{ kindOf (semver "1.0.0") }} {{ toJson (semver "1.2.3") }}',
  ],
  ['{{ semver "1.2.3.4" }}'],
  ['{{ semver "1.2.3-01" }}'],
  ['{{ semver "99999999999999999999.0.0" }}'],
  [
    '{{ semverCompare ">= 1.2, < 2" "1.5.0" }} {{ semverCompare "^1.2" "2.0.0" }} {{ semverCompare "1.2 - 1.4.5" "1.4.5" }} {{ semverCompare "~1.2.x" "1.2.9" }} {{ semverCompare "1.x || >=2.5" "2.4.0" }} {{ semverCompare ">1.0" "1.1.0-beta" }}',
  ],
  ['{{ semverCompare "bogus" "1.0.0" }}'],
  ['{{ urlParse "https://user:pa%20ss@example.com:8080/p/a%2Fth?q=1&r=%20#frag" }}|{{ urlParse "mailto:x@y.z" }}|{{ urlParse "/rel?x" }}'],
  ['{{ urlParse "ftp://host/%zz" }}'],
  [
    '{{ urlJoin (dict "scheme" "https" "host" "example.com" "path" "/a b" "query" "x=1" "fragment" "f g" "userinfo" "u:p w") }}|{{ urlJoin (dict "path" "a:b") }}|{{ urlJoin (dict "scheme" "mailto" "opaque" "x@y") }}',
  ],
  ['{{ urlJoin (dict "host" 1) }}'],
  // conflicts and keepers
  ['{{ split "," "a,b,c" }} {{ (split "," "a,b") | len }} {{ slice (list 1 2 3) 1 }}'],
];
