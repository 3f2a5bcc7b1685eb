(* ::Package:: *)

(* The one place that knows about J/Link: starting Java once, putting the jar on the class path,
   turning Java exceptions into Failures, moving bytes, and checking options. Every Java call in
   the paclet goes through javaCall, and every byte crossing goes through toJava/fromJava. *)

BeginPackage["WSJava`", {"JLink`"}];

Begin["`Private`"];

WSJava::nojar = "The WSJava jar was not found in `1`. Build it with mvn package, or install the .paclet archive.";
WSJava::nojava = "Java could not be started or could not load `1`: `2`.";
WSJava::javaerr = "Java error: `1`";
WSJava::args = "`1` was called with `2`; expected `3`.";
WSJava::optx = "Unknown option `1` in `2`; the options are `3`.";
WSJava::optv = "The option `1` -> `2` is not valid: `3`.";

(* The paclet's Java folder, found relative to this file (as BioFormatsLink does). *)
$javaDirectory = FileNameJoin[{ParentDirectory[DirectoryName[$InputFileName]], "Java"}];

$linkClass = "wsjava.link.WSJavaLink";

(* The JavaLink we set up last. The class path and the loaded class must be set again when
   someone restarted the JVM (ReinstallJava). We never call ReinstallJava ourselves: it would
   restart Java for every package in the kernel. *)
If[!MatchQ[$preparedLink, None | _LinkObject], $preparedLink = None];   (* kept when the paclet is read again *)

javaFailure[what_, reason_] := (
  Message[WSJava::nojava, what, reason];
  Failure["WSJavaNoJava", <|"MessageTemplate" :> WSJava::nojava, "MessageParameters" -> {what, reason}|>]
);

(* Gives the Java link, or a Failure (with a message) when Java or the jar cannot be had. A
   failure is never remembered as prepared, so the next call tries again. *)
ensureJava[] := Module[{link, loaded},
  link = Quiet[Check[InstallJava[], $Failed]];
  Which[
    Head[link] =!= LinkObject, javaFailure["Java", "InstallJava[] failed"],
    link === $preparedLink, link,
    FileNames["*.jar", $javaDirectory] === {},
      Message[WSJava::nojar, $javaDirectory];
      Failure["WSJavaNoJar", <|"MessageTemplate" :> WSJava::nojar, "MessageParameters" -> {$javaDirectory}|>],
    True,
      AddToClassPath[$javaDirectory];
      (* An old bundled JVM fails here with UnsupportedClassVersionError: the jar targets Java 11. *)
      loaded = Quiet[Check[LoadJavaClass[$linkClass], $Failed]];
      If[Head[loaded] =!= JavaClass,
        javaFailure[$linkClass, "LoadJavaClass failed (the jar needs Java 11 or newer)"],
        $preparedLink = link
      ]
  ]
];

(* Evaluates a Java call. Any message it issues (a Java exception, Java::excptn, or one of
   J/Link's own argument errors, Java::argxs and relatives) is quieted and becomes one
   WSJava::javaerr with the exception's text, or the names of the messages, and a Failure.
   PreemptProtect covers the whole call, starting Java and GetJavaException included: the link to
   Java is not re-entrant, so a scheduled drain must not start another J/Link call in between. *)
SetAttributes[{javaCall, javaInvoke}, HoldFirst];
javaCall[call_] := PreemptProtect[With[{ready = ensureJava[]}, If[FailureQ[ready], ready, javaInvoke[call]]]];

(* The same on a link that must already be there: a scheduled drain tick calls Java this way, so
   it never starts a JVM (after UninstallJava, InstallJava would start a fresh one on every tick). *)
SetAttributes[javaCallOn, HoldRest];
javaCallOn[link_, call_] := PreemptProtect[
  If[link =!= None && JavaLink[] === link && link === $preparedLink, javaInvoke[call],
    Failure["WSJavaJavaGone", <|"MessageTemplate" -> "The Java runtime this object was started on is gone."|>]]];

(* Whether Java threw is decided by two Checks, whose operation Quiet does not change (reference
   page of Check): the inner one sees only Java::excptn, the outer one any message (the inner one's
   included, so it must not overwrite the verdict). $MessageList only names the messages in the
   text. Off[Java::excptn] hides the message from Check too; a $Failed with no message is then
   reported as a failed call. *)
javaInvoke[call_] := Module[{before = Length[$MessageList], verdict = None, result},
  result = Quiet[Check[
    Check[call, (verdict = "exception"; $javaFailed), {Java::excptn}],
    (If[verdict === None, verdict = "refused"]; $javaFailed)]];
  Which[
    verdict =!= None, javaError[Head[Unevaluated[call]], verdict, Drop[$MessageList, Min[before, Length[$MessageList]]]],
    result === $Failed, javaError[Head[Unevaluated[call]], "failed", {}],
    True, result]
];

(* The exception is asked for only when this call threw one: after a J/Link argument error
   (Java::argxs and relatives, $Failed without calling Java) GetJavaException[] may still give an
   earlier call's. *)
javaError[method_, verdict_String, issued_List] := Module[{names, text},
  names = If[issued === {}, "", " (" <> StringRiffle[ToString /@ DeleteDuplicates[issued], ", "] <> ")"];
  text = Switch[verdict,
    "exception", Quiet[JavaBlock[With[{e = GetJavaException[]}, If[e === Null, $Failed, e@toString[]]]]],
    "refused", "J/Link refused " <> ToString[method, InputForm] <> names,
    _, $Failed];
  If[!StringQ[text], text = "the call to " <> ToString[method, InputForm] <> " failed" <> names];
  Message[WSJava::javaerr, text];
  Failure["WSJavaJavaError", <|"MessageTemplate" :> WSJava::javaerr, "MessageParameters" -> {text}|>]
];

(* A bad-arguments Failure with its message, for the catch-all definition of each public function. *)
argumentFailure[function_Symbol, args_List, expected_String] := (
  Message[WSJava::args, function, Short[args], expected];
  Failure["WSJavaBadArguments", <|"MessageTemplate" :> WSJava::args,
    "MessageParameters" -> {function, Short[args], expected}|>]
);

(* OptionsPattern[] accepts any rule. Built-ins complain about an unknown option, and so do we:
   Keys are compared by name, so "Port" and a symbol Port are the same option. *)
optionName[name_Symbol] := SymbolName[name];
optionName[name_String] := name;
optionName[other_] := ToString[other, InputForm];

unknownOptionFailure[function_Symbol, opts_List] := Module[{known, unknown},
  known = optionName /@ Keys[Options[function]];
  unknown = Select[Flatten[opts], !MemberQ[known, optionName[First[#]]] &];
  If[unknown === {}, None,
    Message[WSJava::optx, First[unknown], function, known];
    Failure["WSJavaUnknownOption", <|"MessageTemplate" :> WSJava::optx,
      "MessageParameters" -> {First[unknown], function, known}|>]
  ]
];

optionFailure[name_, value_, why_String] := (
  Message[WSJava::optv, name, Short[value], why];
  Failure["WSJavaBadOption", <|"MessageTemplate" :> WSJava::optv, "MessageParameters" -> {name, Short[value], why}|>]
);

(* Seconds (a number or a time Quantity) as whole milliseconds for Java; None when out of range. *)
secondsToMillis[q_Quantity] := With[{s = Quiet[QuantityMagnitude[UnitConvert[q, "Seconds"]]]},
  If[NumericQ[s], secondsToMillis[s], None]];
secondsToMillis[s_?NumericQ] /; 0 <= s <= 2^31/1000 := Round[1000 s];
secondsToMillis[_] := None;

(* ---- byte transfer: Base64 Strings, natively fast on both sides ---- *)

toJava[bytes_ByteArray] := If[Length[bytes] == 0, "", BaseEncode[bytes]];

(* Text with a character beyond the BMP (an emoji) crosses J/Link as UTF-8 bytes instead: J/Link
   moves Strings as UTF-16, and a surrogate pair is not ours to trust either way. *)
beyondBmpQ[text_String] := Max[0, ToCharacterCode[text]] > 65535;
fromJava[""] := ByteArray[{}];
fromJava[text_String] := BaseDecode[text];

(* The alternative, an integer list for a byte[] parameter, kept for the transfer benchmark:
   J/Link's byte is signed, so 128..255 travel as -128..-1. *)
toJavaIntegers[bytes_ByteArray] := With[{list = Normal[bytes]}, list - 256 UnitStep[list - 128]];
fromJavaIntegers[list_List] := ByteArray[Mod[list, 256]];

WSJavaInfo[] := Module[{version, kernel},
  version = javaCall[WSJavaLink`version[]];
  If[FailureQ[version], Return[version]];
  kernel = javaCall[WSJavaLink`maskImplementation[]];
  <|"Version" -> version, "MaskImplementation" -> kernel,
    "JavaVersion" -> javaCall[WSJavaLink`javaVersion[]],
    "JavaDirectory" -> $javaDirectory|>
];
WSJavaInfo[args__] := argumentFailure[WSJavaInfo, {args}, "no arguments"];

End[];

EndPackage[];
