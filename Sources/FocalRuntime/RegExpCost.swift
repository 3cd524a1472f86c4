#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How much backtracking a JavaScript regular expression can do, read from its source.
///
/// JavaScriptCore never checks the time limit inside a regular-expression match, so a
/// match must be known to fit the limit before it starts. The analysis is conservative
/// and linear in the pattern's length:
///
/// - **Refused outright** (``refusal``): shapes whose backtracking grows exponentially
///   with the subject: a repeated group with a variable-length part that the next
///   repetition can take over, because the group can be empty or can end with characters
///   it can also start with (`(a+)+`, `(\w+\s?)*`, `(.*a){12}`; but not `(\d+\.){3}`,
///   whose repetitions are delimited), a repeated group with an alternation whose branches
///   can start with the same character or be empty (`(a|a)+`, `(a|ab)*`, `(a|b?)+`), groups
///   nested deeper than 64, and a pattern over ``maximumSourceLength``.
/// - **Polynomial** (``degree``): a chain of variable-count quantifiers (`*`, `+`, `?`,
///   `{n,m}`) over overlapping characters, not separated by something they cannot
///   consume, can split the subject between them in about `n^k` ways (`a*a*b`, `\d+\d+x`);
///   an unanchored search tries every start position, one more factor of `n`. So a match
///   on a subject of `n` UTF-16 units costs at most about `ambiguity · (n+1)^degree` steps.
public struct RegExpCost: Sendable, Hashable {
    /// Why the pattern is never run, or `nil`.
    public var refusal: String?
    /// The exponent of the subject length in the worst-case step count.
    public var degree: Int
    /// The factor of alternations outside repetition whose branches overlap (each can be
    /// tried in turn); at least 1, capped at 2^60.
    public var ambiguity: Double

    /// The longest pattern analysed (and so run), in UTF-16 units.
    public static let maximumSourceLength = 16 * 1024

    /// Analyses a pattern given as a `RegExp`'s `source` and `flags`.
    public init(source: String, flags: String) {
        refusal = nil
        degree = 1
        ambiguity = 1
        guard source.utf16.count <= Self.maximumSourceLength else {
            refusal = "its source is \(source.utf16.count) characters long, more than \(Self.maximumSourceLength)"
            return
        }
        var parser = RegExpCostParser(source: Array(source.unicodeScalars), flags: flags)
        let pattern = parser.parseDisjunction()
        if let refused = parser.refusal {
            refusal = refused
            return
        }
        let anchored = flags.contains("y") || (!flags.contains("m") && pattern.startsAnchored)
        degree = pattern.maximumChain + (anchored ? 0 : 1)
        ambiguity = min(pattern.ambiguity, 0x1p60)
    }

    /// The worst-case step count for a subject of `length` UTF-16 units.
    public func steps(forSubjectLength length: Int) -> Double {
        ambiguity * pow(Double(length) + 1, Double(degree))
    }
}

/// The characters an expression can consume: ASCII as a bitmap, the rest as one flag.
struct CharacterSet: Hashable {
    var low: UInt64 = 0
    var high: UInt64 = 0
    var nonASCII = false

    static let none = CharacterSet()
    static let all = CharacterSet(low: ~0, high: ~0, nonASCII: true)

    init(low: UInt64 = 0, high: UInt64 = 0, nonASCII: Bool = false) {
        self.low = low
        self.high = high
        self.nonASCII = nonASCII
    }

    init(scalar: Unicode.Scalar, ignoringCase: Bool) {
        self.init()
        insert(scalar, ignoringCase: ignoringCase)
    }

    mutating func insert(_ scalar: Unicode.Scalar, ignoringCase: Bool) {
        let value = scalar.value
        guard value < 128 else {
            nonASCII = true
            return
        }
        insertASCII(UInt8(value))
        if ignoringCase, let other = Self.otherCase(UInt8(value)) { insertASCII(other) }
    }

    mutating func insertRange(_ first: Unicode.Scalar, _ last: Unicode.Scalar, ignoringCase: Bool) {
        guard first.value <= last.value else { return }
        if last.value >= 128 { nonASCII = true }
        guard first.value < 128 else { return }
        for value in first.value...min(last.value, 127) { insert(Unicode.Scalar(UInt8(value)), ignoringCase: ignoringCase) }
    }

    private mutating func insertASCII(_ byte: UInt8) {
        if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
    }

    private static func otherCase(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - 32
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
        default: nil
        }
    }

    func union(_ other: CharacterSet) -> CharacterSet {
        CharacterSet(low: low | other.low, high: high | other.high, nonASCII: nonASCII || other.nonASCII)
    }

    /// Everything this set does not hold (anything beyond ASCII is assumed possible).
    var complement: CharacterSet { CharacterSet(low: ~low, high: ~high, nonASCII: true) }

    func overlaps(_ other: CharacterSet) -> Bool {
        low & other.low != 0 || high & other.high != 0 || (nonASCII && other.nonASCII)
    }

    static let digits: CharacterSet = {
        var set = CharacterSet()
        set.insertRange("0", "9", ignoringCase: false)
        return set
    }()

    static let word: CharacterSet = {
        var set = digits
        set.insertRange("a", "z", ignoringCase: false)
        set.insertRange("A", "Z", ignoringCase: false)
        set.insert("_", ignoringCase: false)
        return set
    }()

    static let space: CharacterSet = {
        var set = CharacterSet(nonASCII: true)
        for scalar in [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}"] as [Unicode.Scalar] { set.insert(scalar, ignoringCase: false) }
        return set
    }()

    static let lineTerminators: CharacterSet = {
        var set = CharacterSet(nonASCII: true)
        set.insert("\n", ignoringCase: false)
        set.insert("\r", ignoringCase: false)
        return set
    }()
}

/// What the analysis knows of a piece of a pattern.
struct RegExpShape {
    /// The characters it can consume.
    var characters = CharacterSet.none
    /// The characters it can start with.
    var first = CharacterSet.none
    /// Whether it can match the empty string.
    var canBeEmpty = true
    /// Whether it holds a variable-count quantifier or a back-reference.
    var isVariable = false
    /// The longest chain of overlapping variable-count quantifiers inside it.
    var maximumChain = 0
    /// Its leading chain (open at its start) and trailing chain (open at its end): the
    /// quantifiers that can trade characters with what comes before or after it.
    var leadingChain = 0
    var trailingChain = 0
    /// The characters of the trailing chain.
    var trailingCharacters = CharacterSet.none
    /// The product of the branch counts of overlapping alternations.
    var ambiguity: Double = 1
    /// Whether it holds an alternation whose branches overlap or can be empty.
    var hasAmbiguousAlternation = false
    /// Whether it can only match at the start of the input (`^` first, in every branch).
    var startsAnchored = false
    /// Whether it is an atom under a variable-count quantifier (its chain stays open after it).
    var isQuantified = false

    /// An atom that consumes one character of `set`.
    static func atom(_ set: CharacterSet) -> RegExpShape {
        RegExpShape(characters: set, first: set, canBeEmpty: false)
    }

    /// An assertion that consumes nothing.
    static let assertion = RegExpShape()
}

/// A recursive-descent reader of JavaScript pattern syntax that computes ``RegExpShape``s.
///
/// Nesting is limited (``maximumDepth``), so the recursion is bounded; anything it does
/// not understand is treated as the most costly thing it could be.
struct RegExpCostParser {
    let source: [Unicode.Scalar]
    let ignoringCase: Bool
    let dotAll: Bool
    let unicodeSets: Bool
    var position = 0
    var depth = 0
    var refusal: String?

    static let maximumDepth = 64

    init(source: [Unicode.Scalar], flags: String) {
        self.source = source
        ignoringCase = flags.contains("i")
        dotAll = flags.contains("s")
        unicodeSets = flags.contains("v")
    }

    private var atEnd: Bool { position >= source.count }
    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        position + offset < source.count ? source[position + offset] : nil
    }

    private mutating func refuse(_ reason: String) {
        if refusal == nil { refusal = reason }
    }

    // MARK: Disjunctions and sequences

    mutating func parseDisjunction() -> RegExpShape {
        var branches = [parseSequence()]
        while peek() == "|" {
            position += 1
            branches.append(parseSequence())
        }
        guard branches.count > 1 else { return branches[0] }
        var shape = RegExpShape()
        shape.canBeEmpty = branches.contains { $0.canBeEmpty }
        var overlapping = shape.canBeEmpty
        var firsts = CharacterSet.none
        var largest: Double = 1
        for branch in branches {
            if branch.first.overlaps(firsts) { overlapping = true }
            firsts = firsts.union(branch.first)
            shape.characters = shape.characters.union(branch.characters)
            shape.isVariable = shape.isVariable || branch.isVariable
            shape.maximumChain = max(shape.maximumChain, branch.maximumChain)
            shape.leadingChain = max(shape.leadingChain, branch.leadingChain)
            shape.trailingChain = max(shape.trailingChain, branch.trailingChain)
            shape.trailingCharacters = shape.trailingCharacters.union(branch.trailingCharacters)
            shape.hasAmbiguousAlternation = shape.hasAmbiguousAlternation || branch.hasAmbiguousAlternation
            largest = max(largest, branch.ambiguity)
        }
        shape.first = firsts
        shape.hasAmbiguousAlternation = shape.hasAmbiguousAlternation || overlapping
        // Overlapping branches are each tried in turn: the cost of the costliest, times their count.
        shape.ambiguity = overlapping ? largest * Double(branches.count) : largest
        shape.startsAnchored = branches.allSatisfy(\.startsAnchored)
        return shape
    }

    private mutating func parseSequence() -> RegExpShape {
        var shape = RegExpShape()
        var isStart = true
        // The open chain: variable quantifiers since the last thing they cannot consume,
        // and the characters they take.
        var chain = 0
        var chainCharacters = CharacterSet.none
        var leadingOpen = true
        while let scalar = peek(), scalar != "|", scalar != ")" {
            let term = parseTerm()
            if refusal != nil { return shape }
            if isStart { shape.startsAnchored = term.startsAnchored }
            if term.leadingChain > 0 {
                if chain > 0 && term.characters.overlaps(chainCharacters) {
                    chain += term.leadingChain
                    chainCharacters = chainCharacters.union(term.characters)
                } else if chain > 0 && term.canBeEmpty {
                    // Skippable: what came before can still trade with what comes after.
                    chain = max(chain, term.leadingChain)
                    chainCharacters = chainCharacters.union(term.characters)
                } else {
                    chain = term.leadingChain
                    chainCharacters = term.characters
                }
                shape.maximumChain = max(shape.maximumChain, chain)
                if !term.canBeEmpty && !term.isQuantified {
                    // A group that ends with something fixed: only its own trailing chain stays open.
                    chain = term.trailingChain
                    chainCharacters = term.trailingCharacters
                }
            } else if !term.canBeEmpty && !term.characters.overlaps(chainCharacters) {
                chain = term.trailingChain
                chainCharacters = term.trailingCharacters
            }
            if leadingOpen { shape.leadingChain = max(shape.leadingChain, chain) }
            if !term.canBeEmpty { leadingOpen = false }
            shape.maximumChain = max(shape.maximumChain, term.maximumChain)
            if shape.canBeEmpty { shape.first = shape.first.union(term.first) }
            shape.canBeEmpty = shape.canBeEmpty && term.canBeEmpty
            shape.characters = shape.characters.union(term.characters)
            shape.isVariable = shape.isVariable || term.isVariable
            shape.hasAmbiguousAlternation = shape.hasAmbiguousAlternation || term.hasAmbiguousAlternation
            shape.ambiguity *= term.ambiguity
            isStart = false
        }
        shape.trailingChain = chain
        shape.trailingCharacters = chainCharacters
        return shape
    }

    // MARK: Terms

    private mutating func parseTerm() -> RegExpShape {
        let start = position
        let atom = parseAtom()
        guard refusal == nil else { return atom }
        guard let (minimum, maximum) = parseQuantifier() else { return atom }
        if peek() == "?" { position += 1 }  // lazy: the same work in another order
        let column = start + 1
        if maximum > 1 {
            // Iterations can trade characters when one can end the way the next begins.
            if atom.isVariable && (atom.canBeEmpty || atom.trailingChain > 0 && atom.trailingCharacters.overlaps(atom.first)) {
                refuse(
                    "a repeated group contains a variable-length part that the next repetition can take over (column \(column)): its backtracking grows exponentially"
                )
                return atom
            }
            if atom.hasAmbiguousAlternation {
                refuse(
                    "a repeated alternation has branches that overlap or can be empty (column \(column)): its backtracking grows exponentially"
                )
                return atom
            }
        }
        var shape = atom
        shape.startsAnchored = atom.startsAnchored && minimum > 0
        if minimum == 0 { shape.canBeEmpty = true }
        if maximum > minimum && atom.characters != .none {
            // A variable count: one more way to split the subject.
            shape.isVariable = true
            shape.isQuantified = true
            shape.maximumChain = max(atom.maximumChain, 1)
            shape.leadingChain = 1
            shape.trailingChain = 1
            shape.trailingCharacters = atom.characters
        }
        return shape
    }

    /// `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` with their counts (`Int.max` for no bound), or
    /// `nil` when none follows.
    private mutating func parseQuantifier() -> (Int, Int)? {
        switch peek() {
        case "*":
            position += 1
            return (0, .max)
        case "+":
            position += 1
            return (1, .max)
        case "?":
            position += 1
            return (0, 1)
        case "{":
            var cursor = position + 1
            func number() -> Int? {
                var value = 0
                var digits = 0
                while cursor < source.count, let digit = Int(String(source[cursor])), source[cursor].isASCII {
                    value = min(value * 10 + digit, 1 << 31)
                    digits += 1
                    cursor += 1
                }
                return digits > 0 ? value : nil
            }
            guard let minimum = number() else { return nil }
            var maximum = minimum
            if cursor < source.count, source[cursor] == "," {
                cursor += 1
                maximum = number() ?? .max
            }
            guard cursor < source.count, source[cursor] == "}" else { return nil }
            position = cursor + 1
            return (minimum, maximum)
        default: return nil
        }
    }

    private mutating func parseAtom() -> RegExpShape {
        guard let scalar = peek() else { return .assertion }
        position += 1
        switch scalar {
        case "^":
            var shape = RegExpShape.assertion
            shape.startsAnchored = true
            return shape
        case "$": return .assertion
        case ".": return .atom(dotAll ? .all : CharacterSet.lineTerminators.complement)
        case "[": return .atom(parseClass())
        case "\\": return parseEscape()
        case "(": return parseGroup()
        default: return .atom(CharacterSet(scalar: scalar, ignoringCase: ignoringCase))
        }
    }

    private mutating func parseGroup() -> RegExpShape {
        var lookaround = false
        if peek() == "?" {
            switch peek(1) {
            case ":": position += 2
            case "=", "!":
                position += 2
                lookaround = true
            case "<" where peek(2) == "=" || peek(2) == "!":
                position += 3
                lookaround = true
            case "<":
                position += 2
                while let scalar = peek(), scalar != ">" { position += 1 }
                position += 1
            default:
                // Modifiers such as `(?i:…)`: skip to the colon.
                while let scalar = peek(), scalar != ":", scalar != ")" { position += 1 }
                if peek() == ":" { position += 1 }
            }
        }
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            refuse("its groups nest deeper than \(Self.maximumDepth) levels")
            return .assertion
        }
        let inner = parseDisjunction()
        if peek() == ")" { position += 1 }
        guard lookaround else { return inner }
        // A lookaround runs its own search at a position and consumes nothing; its
        // quantifiers still count (conservatively, as if they were part of the chain).
        var shape = RegExpShape.assertion
        shape.isVariable = inner.isVariable
        shape.maximumChain = inner.maximumChain
        shape.ambiguity = inner.ambiguity
        shape.hasAmbiguousAlternation = inner.hasAmbiguousAlternation
        shape.characters = inner.characters
        shape.leadingChain = inner.maximumChain
        return shape
    }

    private mutating func parseEscape() -> RegExpShape {
        guard let scalar = peek() else { return .atom(CharacterSet(scalar: "\\", ignoringCase: false)) }
        position += 1
        switch scalar {
        case "b", "B": return .assertion
        case "d": return .atom(.digits)
        case "D": return .atom(CharacterSet.digits.complement)
        case "w": return .atom(.word)
        case "W": return .atom(CharacterSet.word.complement)
        case "s": return .atom(.space)
        case "S": return .atom(CharacterSet.space.complement)
        case "p", "P":
            skipBraces()
            return .atom(.all)
        case "k":
            if peek() == "<" {
                while let next = peek(), next != ">" { position += 1 }
                position += 1
            }
            return backReference()
        case "1"..."9":
            while let next = peek(), next.properties.numericType != nil, next.isASCII { position += 1 }
            return backReference()
        case "u", "x", "c", "0", "f", "n", "r", "t", "v":
            skipEscapeBody(scalar)
            return .atom(.all)
        default: return .atom(CharacterSet(scalar: scalar, ignoringCase: ignoringCase))
        }
    }

    /// A back-reference matches a variable length: it counts as a variable quantifier.
    private func backReference() -> RegExpShape {
        var shape = RegExpShape.atom(.all)
        shape.canBeEmpty = true
        shape.isVariable = true
        shape.maximumChain = 1
        shape.leadingChain = 1
        shape.trailingChain = 1
        shape.trailingCharacters = .all
        return shape
    }

    private mutating func skipBraces() {
        guard peek() == "{" else { return }
        while let next = peek(), next != "}" { position += 1 }
        position += 1
    }

    private mutating func skipEscapeBody(_ kind: Unicode.Scalar) {
        switch kind {
        case "u":
            if peek() == "{" { skipBraces() } else { position = min(position + 4, source.count) }
        case "x": position = min(position + 2, source.count)
        case "c": position = min(position + 1, source.count)
        default: break
        }
    }

    /// A character class, as the set of characters it can match.
    private mutating func parseClass() -> CharacterSet {
        let negated = peek() == "^"
        if negated { position += 1 }
        var set = CharacterSet()
        var nesting = 0
        var previous: Unicode.Scalar?
        while let scalar = peek() {
            position += 1
            switch scalar {
            case "]" where nesting == 0:
                return negated ? set.complement : set
            case "]":
                nesting -= 1
            case "[" where unicodeSets:
                // Nested classes and set operations (`v` flag): assume anything.
                nesting += 1
                set = .all
            case "\\":
                guard let escaped = peek() else { continue }
                position += 1
                switch escaped {
                case "d": set = set.union(.digits)
                case "D": set = set.union(CharacterSet.digits.complement)
                case "w": set = set.union(.word)
                case "W": set = set.union(CharacterSet.word.complement)
                case "s": set = set.union(.space)
                case "S": set = set.union(CharacterSet.space.complement)
                case "p", "P", "u", "x", "c", "q":
                    if escaped == "p" || escaped == "P" || escaped == "q" { skipBraces() } else { skipEscapeBody(escaped) }
                    set = .all
                default: set.insert(escaped, ignoringCase: ignoringCase)
                }
                previous = nil
                continue
            case "-" where previous != nil && peek() != nil && peek() != "]":
                let last = peek()!
                position += 1
                set.insertRange(previous!, last == "\\" ? "\u{10FFFF}" : last, ignoringCase: ignoringCase)
                if last == "\\" { set = .all }
                previous = nil
                continue
            default:
                set.insert(scalar, ignoringCase: ignoringCase)
            }
            previous = scalar
        }
        return negated ? set.complement : set
    }
}
