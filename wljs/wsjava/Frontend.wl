(* ::Package:: *)

(* The WSJava extension for WLJS Notebook. WLJS's UI kernel reads this file (Scripts/start.wls
   gets every extension's "frontend" file) before it opens its WebSocket listener. Everything
   lives in the installed WSJava paclet (Kernel/WLJSExtension.wl), so this file never changes:
   it loads that, and arms it. If WSJava is missing or refuses, WLJS runs as it always does. This
   file must never fail or abort: start.wls exits when a frontend file gives a Failure. *)

CheckAbort[
  Catch[Catch[
    If[FailureQ[Quiet[Check[Needs["WSJava`WLJSExtension`"], $Failed]]],
      Echo["the WSJava paclet is not installed (PacletInstall it); WLJS's own sockets stay in use", "WSJava: "],
      WSJava`WLJSExtension`ArmUIKernel[]],
    _, Echo["the extension stopped early; WLJS's own sockets stay in use", "WSJava: "] &]],
  Echo["the extension was aborted; WLJS's own sockets stay in use", "WSJava: "]];

Null
