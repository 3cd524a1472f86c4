print("focal")
