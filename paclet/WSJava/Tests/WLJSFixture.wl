(* ::Package:: *)

(* The WLJS packages the WLJS bridge tests (and Verify.wls) run against: WLJS's own when
   WSJAVA_WLJS_DIR names a WLJS checkout, else the stand-ins of WLJSStandIns.wl. That file is read
   with Get, so its BeginPackage blocks are top-level expressions there: inside this If they would
   change no context (symbols are made when an expression is parsed, before any of it runs). *)

If[StringQ[Environment["WSJAVA_WLJS_DIR"]] && DirectoryQ[Environment["WSJAVA_WLJS_DIR"]],
  PacletDirectoryLoad[FileNameJoin[{Environment["WSJAVA_WLJS_DIR"], "Packages"}]];
  Needs["CoffeeLiqueur`Objects`"]; Needs["CoffeeLiqueur`Internal`"];
  Needs["CoffeeLiqueur`Misc`Events`"]; Needs["CoffeeLiqueur`WebSocketHandler`"],
  Get[FileNameJoin[{DirectoryName[$InputFileName], "WLJSStandIns.wl"}]]
];
