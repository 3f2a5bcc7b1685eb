#!/usr/bin/env escript
%% WebSocket masking in Erlang the way the Bandit benchmark's winner does it: repeat the 4-byte
%% key to the payload's length, then crypto:exor/2 (a NIF). Both steps are timed, as they run per
%% frame. Usage: escript mask_erlang.escript OUTDIR SIZE...
%% Prints "RESULT erlang-crypto-exor <size> <median ns>" and writes OUTDIR/erlang-crypto-exor-<size>.bin.

main([OutDir | Sizes]) ->
    Key = <<16#37, 16#FA, 16#21, 16#3D>>,
    lists:foreach(fun(S) -> run(OutDir, list_to_integer(S), Key) end, Sizes).

mask(Payload, Key) ->
    Size = byte_size(Payload),
    Fit = binary:part(binary:copy(Key, Size div 4 + 1), 0, Size),
    crypto:exor(Payload, Fit).

run(OutDir, Size, Key) ->
    Block = list_to_binary([(I * 131 + 7) band 255 || I <- lists:seq(0, 255)]),
    Payload = binary:part(binary:copy(Block, Size div 256 + 1), 0, Size),
    Reps = max(5, min(2000, (32 bsl 20) div Size)),
    [mask(Payload, Key) || _ <- lists:seq(1, Reps div 5 + 1)],
    Times = lists:sort([begin
                            T = erlang:monotonic_time(nanosecond),
                            _ = mask(Payload, Key),
                            erlang:monotonic_time(nanosecond) - T
                        end || _ <- lists:seq(1, Reps)]),
    io:format("RESULT erlang-crypto-exor ~b ~b~n", [Size, lists:nth(Reps div 2 + 1, Times)]),
    ok = file:write_file(filename:join(OutDir, "erlang-crypto-exor-" ++ integer_to_list(Size) ++ ".bin"), mask(Payload, Key)).
