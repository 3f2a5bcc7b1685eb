#!/usr/bin/env bash
# The WSJava extension for WLJS Notebook (wljs/wsjava), with no edit to WLJS's own files:
#   ./wsjava wljs install [EXTENSIONS_DIR]   PacletInstall the paclet (when wolframscript is here) and
#                                            copy the extension into WLJS's Extensions folder
#   ./wsjava wljs uninstall [EXTENSIONS_DIR] remove the extension (WLJS then uses its own sockets)
#   ./wsjava wljs status [EXTENSIONS_DIR]    is it installed, and which version
#   ./wsjava wljs check WLJS_DIR             does a WLJS checkout or installation still have every
#                                            place the extension hooks into (run it after a WLJS update)
# EXTENSIONS_DIR defaults to WLJS's own: $WLJS_EXTENSIONS_DIR, else "WLJS Notebooks/Extensions" in the
# kernel's $UserDocumentsDirectory (as WLJS finds it), else in ~/Documents.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SOURCE="$ROOT/wljs/wsjava"
PACLET="${WSJAVA_PACLET:-$ROOT/target/WSJava-0.1.0.paclet}"
default_dir="${WLJS_EXTENSIONS_DIR:-$HOME/Documents/WLJS Notebooks/Extensions}"

# A path as the kernel reads it: a Windows path under Git Bash or Cygwin, else unchanged.
native_path() { if command -v cygpath >/dev/null 2>&1; then cygpath -w "$1"; else printf '%s\n' "$1"; fi; }
unix_path() { if command -v cygpath >/dev/null 2>&1; then cygpath -u "$1"; else printf '%s\n' "$1"; fi; }

# PacletInstall in a kernel, with its output (and any activation prompt) on the terminal. It counts
# as done only when the kernel wrote its Extensions folder to $1 after checking that PacletInstall
# gave a PacletObject and that PacletFind["WSJava"] now gives that paclet first: a Failure can come
# back with exit code 0.
install_paclet() {
  WSJAVA_PACLET_FILE="$(native_path "$PACLET")" WSJAVA_DIR_FILE="$(native_path "$1")" wolframscript -code '
    p = PacletInstall[File[Environment["WSJAVA_PACLET_FILE"]], ForceVersionInstall -> True];
    found = PacletFind["WSJava"];
    Which[
      Head[p] =!= PacletObject, Print["PacletInstall gave ", p]; Exit[1],
      found === {} || First[found]["Location"] =!= p["Location"],
        Print["PacletFind[\"WSJava\"] does not give the paclet just installed: ", found]; Exit[1],
      True,
        Print["installed ", p["Name"], " ", p["Version"], " at ", p["Location"]];
        Export[Environment["WSJAVA_DIR_FILE"], FileNameJoin[{$UserDocumentsDirectory, "WLJS Notebooks", "Extensions"}], "Text"];
        Exit[0]]' || return 1
  [ -s "$1" ]
}

# The usage text (this file's header); exit code $1, 2 unless asked for.
usage() { sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }

# check: each line is "file|what it is|extended regex". The extension arms nothing when one of
# them is missing (it checks the same structure at run time); this says so before WLJS starts.
HOOKS='Scripts/start.wls|user extensions are registered|WLJSPackages`Load\[ *AppExtensions`ExtensionsDir *\]
Scripts/start.wls|extension frontend files are read|WLJSPackages`Includes\["frontend"\]
Scripts/start.wls|the UI listener: SocketListen[USocketOpen[host, ws], wcp@#&, ...]|SocketListen\[ *USocketOpen\[ *\$Env\["host"\] *, *\$Env\["ws"\] *\] *, *wcp@#&
Frontend/KernelUtils.wl|the evaluation kernel listener: SocketListen[USocketOpen[host, port], ...wcp@#&, ...]|SocketListen\[ *USocketOpen\[ *host *, *port *\] *, *Internal`Kernel`wcp@#&
Frontend/KernelUtils.wl|it is sent with GenericKernel`Init|GenericKernel`Init\[ *kernel *,
Packages/CSockets/Kernel/CSockets.wl|USocketOpen[host, port] (binds nothing)|^USocketOpen\[ *host_String *: *"localhost" *, *port_Integer *\]
Packages/CSockets/Kernel/CSockets.wl|SocketListen on a USocketObject|USocketObject */: *SocketListen\[
Packages/CSockets/Kernel/EventsExtension.wl|CSocketsClosingHandler|^CSocketsClosingHandler *=
Kernel/LocalKernel.wl|GenericKernel`Init is an UpValue of LocalKernelObject|LocalKernelObject */: *GenericKernel`Init\[ *k_LocalKernelObject *, *expr_
Kernel/Kernel.wl|Init holds its expression|SetAttributes\[ *Init *, *HoldRest *\]
Packages/Misc/Kernel/Async.wl|MicrotaskSubmit (the UI kernel drains in WLJS s own loop)|^MicrotaskSubmit\[ *expr_ *, *OptionsPattern'

check() {
  local wljs=$1 missing=0 file what regex
  [ -d "$wljs" ] || { echo "wsjava wljs check: $wljs is not a folder" >&2; return 2; }
  version=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$wljs/package.json" 2>/dev/null | head -1)
  echo "WLJS at $wljs, version ${version:-unknown} (WSJava was checked against 3.0.0 and 3.0.1)"
  while IFS='|' read -r file what regex; do
    if [ -f "$wljs/$file" ] && grep -Eq -- "$regex" "$wljs/$file"; then
      echo "  ok       $file: $what"
    else
      echo "  MISSING  $file: $what"
      missing=$((missing + 1))
    fi
  done <<< "$HOOKS"
  if [ "$missing" -gt 0 ]; then
    echo "$missing place(s) missing: this WLJS differs from what the extension knows; it will stand down and WLJS will use its own sockets."
    return 1
  fi
  echo "every place the extension hooks into is there."
}

installed_version() { sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$1/wsjava/package.json" 2>/dev/null | head -1; }

case "${1:-}" in
  install)
    dir=${2:-$default_dir}
    if [ -n "${WSJAVA_NO_PACLET_INSTALL:-}" ]; then
      echo "WSJAVA_NO_PACLET_INSTALL is set: the paclet is not installed"
    elif command -v wolframscript >/dev/null 2>&1; then
      [ -f "$PACLET" ] || { echo "wsjava wljs install: $PACLET is missing (./wsjava builds it)" >&2; exit 2; }
      echo "installing the WSJava paclet for every kernel (PacletInstall)..."
      answer=$(mktemp) || exit 1
      if ! install_paclet "$answer"; then
        rm -f "$answer"
        echo "wsjava wljs install: the paclet was not installed (see above); the extension was not copied" >&2
        exit 1
      fi
      if [ $# -lt 2 ] && [ -z "${WLJS_EXTENSIONS_DIR:-}" ]; then dir=$(unix_path "$(cat "$answer")"); fi
      rm -f "$answer"
    else
      echo "no wolframscript here: install the paclet yourself with PacletInstall[\"$(native_path "$PACLET")\"]"
    fi
    mkdir -p "$dir" && rm -rf "$dir/wsjava" && cp -R "$SOURCE" "$dir/wsjava" || exit 1
    echo "installed the extension in $dir/wsjava; restart WLJS Notebook (its log then says which ports WSJava serves)."
    ;;
  uninstall)
    dir=${2:-$default_dir}
    if [ -d "$dir/wsjava" ]; then
      rm -rf "$dir/wsjava" && echo "removed $dir/wsjava; restart WLJS Notebook to use its own sockets again."
    else
      echo "nothing to remove: $dir/wsjava does not exist."
    fi
    ;;
  status)
    dir=${2:-$default_dir}
    v=$(installed_version "$dir")
    if [ -n "$v" ]; then echo "installed: $dir/wsjava (version $v)"; else echo "not installed in $dir"; exit 1; fi
    ;;
  check)
    [ $# -ge 2 ] || usage
    check "$2"
    ;;
  --help|-h|help) usage 0 ;;
  *) usage ;;
esac
