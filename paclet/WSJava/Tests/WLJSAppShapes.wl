(* ::Package:: *)

(* Stand-ins for the parts of the WLJS app that the WSJava extension hooks into, written from the
   structure of WLJS 3.0.x (WLJSTeam/wolfram-js-frontend at e5059da9; no code of theirs is copied):
   - CoffeeLiqueur`CSockets`: USocketOpen[host : "localhost", port] gives a USocketObject and
     binds nothing; SocketListen on one is an UpValue (here it only records the address);
   - CoffeeLiqueur`CSockets`EventsExtension`CSocketsClosingHandler, a pure function;
   - CoffeeLiqueur`TCPServer`TCPUServer[], an object whose "MessageHandler" field holds rules;
   - CoffeeLiqueur`Notebook`LocalKernel`Private`LocalKernelObject, whose GenericKernel`Init
     (CoffeeLiqueur`Notebook`Kernel`Init, HoldRest) is an UpValue; here it records each held
     expression and evaluates it in this kernel, in order, as the kernel's main link would;
   - CoffeeLiqueur`Misc`Async`MicrotaskSubmit (HoldFirst, "Continuous"), run here by runMicrotasks[].
   WLJSFixture.wl supplies WebSocketUHandler and the Events functions. *)

BeginPackage["WSJavaTests`WLJSApp`"];

runMicrotasks::usage = "runMicrotasks[] evaluates every submitted microtask once, as WLJS's MicrotasksRun[] does.";
$csocketsListens::usage = "$csocketsListens lists the {host, port} of every SocketListen that reached the CSockets stand-in.";
$inits::usage = "$inits lists Hold[expr] for every Init sent to a stand-in kernel, in order.";
newKernel::usage = "newKernel[] gives a stand-in LocalKernelObject.";

Begin["`Private`"];

$csocketsListens = {};
$inits = {};
$microtasks = <||>;

CoffeeLiqueur`CSockets`USocketOpen[host_String : "localhost", port_Integer] := CoffeeLiqueur`CSockets`USocketObject[{host, port}];
CoffeeLiqueur`CSockets`USocketObject /: SocketListen[CoffeeLiqueur`CSockets`USocketObject[address_], handler_, opts___] :=
  (AppendTo[$csocketsListens, address]; Null);
CoffeeLiqueur`CSockets`EventsExtension`CSocketsClosingHandler = (Null &);

SetAttributes[CoffeeLiqueur`TCPServer`TCPUServer, HoldFirst];
CoffeeLiqueur`TCPServer`TCPUServer[] := Module[{fields = <|"MessageHandler" -> <||>|>}, CoffeeLiqueur`TCPServer`TCPUServer[fields]];
CoffeeLiqueur`TCPServer`TCPUServer[fields_Symbol][key_String] := fields[key];
CoffeeLiqueur`TCPServer`TCPUServer /: Set[CoffeeLiqueur`TCPServer`TCPUServer[fields_Symbol][key_String, name_String], value_] :=
  (fields[key] = Append[fields[key], name -> value]; value);

SetAttributes[CoffeeLiqueur`Notebook`Kernel`Init, HoldRest];
newKernel[] := CoffeeLiqueur`Notebook`LocalKernel`Private`LocalKernelObject[CreateUUID[]];
CoffeeLiqueur`Notebook`LocalKernel`Private`LocalKernelObject /:
  CoffeeLiqueur`Notebook`Kernel`Init[k_CoffeeLiqueur`Notebook`LocalKernel`Private`LocalKernelObject, expr_, OptionsPattern[{"Once" -> False}]] :=
  (AppendTo[$inits, Hold[expr]]; expr;);

SetAttributes[CoffeeLiqueur`Misc`Async`MicrotaskSubmit, HoldFirst];
CoffeeLiqueur`Misc`Async`MicrotaskSubmit[expr_, OptionsPattern[{"Continuous" -> False}]] := With[{uid = CreateUUID[]},
  $microtasks[uid] = Hold[expr];
  CoffeeLiqueur`Misc`Async`Microtask[uid]];
CoffeeLiqueur`Misc`Async`Microtask /: Delete[CoffeeLiqueur`Misc`Async`Microtask[uid_String]] := KeyDropFrom[$microtasks, uid];
runMicrotasks[] := (ReleaseHold /@ Values[$microtasks];);

End[];

EndPackage[];
