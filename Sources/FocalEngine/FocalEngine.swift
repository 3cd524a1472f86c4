// FocalEngine: see Package.swift for what this target is for.
