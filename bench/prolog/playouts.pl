% Random playouts over a GDL game translated to Prolog by gdl2pl.py (issue 4's peer benchmark).
%
%   swipl -O playouts.pl [--seconds=S | --playouts=N] [--seed=K] [--json] GAME.pl
%
% From the initial state, repeatedly: stop if terminal; for each role collect its legal moves
% with findall/3 and pick one uniformly at random; assert the joint move as gdl_does/2 facts;
% collect findall(X, r_next(X)), deduplicate it, and make it the new state (gdl_true/1 facts).
% At a terminal state, record each role's goal value. Only the playout loop is timed (wall
% clock), as in `ludeme bench`; loading the game is not.

:- use_module(library(main)).
:- use_module(library(random)).
:- use_module(library(lists)).
:- use_module(library(pairs)).

:- initialization(main, main).

:- dynamic outcome_count/3.          % outcome_count(Role, Value, Count)

max_plies(10000).                    % as in `ludeme bench`: far beyond any game's length

main(Argv) :-
    argv_options(Argv, Positional, Options),
    (   Positional = [Game] -> true
    ;   format(user_error, "usage: swipl -O playouts.pl [--seconds=S | --playouts=N] [--seed=K] [--json] GAME.pl~n", []),
        halt(2)
    ),
    option_value(Options, seed, 1, Seed),
    set_random(seed(Seed)),
    load_files(Game, [silent(true)]),
    findall(R, r_role(R), Roles),
    findall(F, r_init(F), Init0),
    sort(Init0, Init),
    (   memberchk(playouts(N), Options)
    ->  Limit = count(N)
    ;   option_value(Options, seconds, 10, S),
        Limit = seconds(S)
    ),
    get_time(T0),
    run(Limit, T0, Roles, Init, 0, 0, 0, Playouts, Plies, Unfinished),
    get_time(T1),
    Elapsed is T1 - T0,
    report(Options, Game, Roles, Playouts, Plies, Unfinished, Elapsed).

option_value(Options, Name, Default, Value) :-
    Opt =.. [Name, V],
    (   memberchk(Opt, Options) -> Value = V ; Value = Default ).

% run(+Limit, +T0, +Roles, +Init, +P0, +Plies0, +U0, -P, -Plies, -U)
run(Limit, T0, Roles, Init, P0, Pl0, U0, P, Pl, U) :-
    (   done(Limit, T0, P0)
    ->  P = P0, Pl = Pl0, U = U0
    ;   playout(Roles, Init, Plies, Status),
        P1 is P0 + 1,
        Pl1 is Pl0 + Plies,
        ( Status == terminal -> U1 = U0 ; U1 is U0 + 1 ),
        run(Limit, T0, Roles, Init, P1, Pl1, U1, P, Pl, U)
    ).

done(count(N), _, P) :- P >= N.
done(seconds(S), T0, _) :- get_time(T), T - T0 >= S.

% playout(+Roles, +Init, -Plies, -Status): one random playout from Init.
playout(Roles, Init, Plies, Status) :-
    set_state(Init),
    max_plies(Max),
    plies(Roles, 0, Max, Plies, Status),
    (   Status == terminal -> record_goals(Roles) ; true ).

plies(Roles, N, Max, Plies, Status) :-
    (   r_terminal
    ->  Plies = N, Status = terminal
    ;   N >= Max
    ->  Plies = N, Status = ply_limit
    ;   retractall(gdl_does(_, _)),
        (   choose_moves(Roles)
        ->  findall(X, r_next(X), Next0),
            sort(Next0, Next),                      % deduplicate
            set_state(Next),
            N1 is N + 1,
            plies(Roles, N1, Max, Plies, Status)
        ;   Plies = N, Status = no_legal_move
        )
    ).

choose_moves([]).
choose_moves([R|Rs]) :-
    findall(M, r_legal(R, M), Moves0),
    sort(Moves0, Moves),                            % each distinct move counts once
    Moves \== [],
    random_member(M, Moves),
    assertz(gdl_does(R, M)),
    choose_moves(Rs).

set_state(Facts) :-
    retractall(gdl_true(_)),
    assert_all(Facts).

assert_all([]).
assert_all([F|Fs]) :- assertz(gdl_true(F)), assert_all(Fs).

record_goals([]).
record_goals([R|Rs]) :-
    (   once(r_goal(R, V)) -> true ; V = none ),
    (   retract(outcome_count(R, V, C))
    ->  C1 is C + 1
    ;   C1 = 1
    ),
    assertz(outcome_count(R, V, C1)),
    record_goals(Rs).

% ---------------------------------------------------------------------------- reporting

report(Options, Game, Roles, Playouts, Plies, Unfinished, Elapsed) :-
    Rate is Playouts / Elapsed,
    Avg is Plies / max(1, Playouts),
    Finished is max(1, Playouts - Unfinished),
    prolog_version(Version),
    (   memberchk(json(true), Options)
    ->  format("{\"game\": \"~w\", \"prolog\": \"SWI-Prolog ~w\", \"playouts\": ~d, \"seconds\": ~6f, \"playouts_per_second\": ~4f, \"avg_plies\": ~6f, \"unfinished\": ~d, \"outcomes\": {",
               [Game, Version, Playouts, Elapsed, Rate, Avg, Unfinished]),
        json_roles(Roles, Finished),
        format("}}~n")
    ;   format("~w: ~d random playouts in ~1f s (~0f per second, SWI-Prolog ~w), ~2f plies on average~n",
               [Game, Playouts, Elapsed, Rate, Version, Avg]),
        forall(member(R, Roles),
               ( role_shares(R, Finished, Shares),
                 format("  ~w:", [R]),
                 forall(member(V-Share, Shares),
                        ( Pct is 100 * Share, format(" ~w: ~1f %", [V, Pct]) )),
                 nl )),
        (   Unfinished > 0 -> format("  ~d playouts did not end~n", [Unfinished]) ; true )
    ).

% role_shares(+Role, +Finished, -Shares): Value-Frequency pairs, highest value first.
role_shares(R, Finished, Shares) :-
    findall(V-Share, (outcome_count(R, V, C), Share is C / Finished), Pairs),
    sort(1, @>=, Pairs, Shares).

json_roles([], _).
json_roles([R|Rs], Finished) :-
    role_shares(R, Finished, Shares),
    format("\"~w\": {", [R]),
    json_shares(Shares),
    format("}"),
    ( Rs == [] -> true ; format(", ") ),
    json_roles(Rs, Finished).

json_shares([]).
json_shares([V-S|T]) :-
    format("\"~w\": ~6f", [V, S]),
    ( T == [] -> true ; format(", ") ),
    json_shares(T).

prolog_version(V) :-
    current_prolog_flag(version, N),
    Major is N // 10000, Minor is (N // 100) mod 100, Patch is N mod 100,
    format(atom(V), "~d.~d.~d", [Major, Minor, Patch]).
