from gm.launch import main

main()
